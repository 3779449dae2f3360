#!/usr/bin/env python3
"""Side-by-side benchmarks: hyperplane against scikit-learn on the same data, in one run.

Usage:  python3 bench/run.py [--repeats 5] [--only spam_e2e,nb_fit]
Needs:  ../shared/peers/setup.sh (scikit-learn 1.9.1) and the SpamAssassin raw corpus at
        ../shared/data/spamassassin (or --spam-dir).

What it does:
- builds the release examples once;
- spam_e2e: splits SpamAssassin 80/20 (stratified, random_state=0) into class folders
  (copies of the messages) under a temp dir; then, alternating the tools, times read + tokenize +
  vectorize + fit + predict in-process (after imports) and the peak RSS of the process
  (/usr/bin/time); scikit-learn runs CountVectorizer + MultinomialNB with defaults;
- nb_fit: writes one CSR matrix (20 classes, 100,000 features, 10 million non-zeros) to a
  LIBSVM file, then times MultinomialNB fit alone on it (reading excluded), both tools
  single-threaded (OMP_NUM_THREADS=1, RAYON_NUM_THREADS=1).
Prints medians, ratios and peak memory as a Markdown table (paste into BENCHMARKS.md).
Following the peers' notes, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for Python.
"""
import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY_ENV = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "RAYON_NUM_THREADS": "1"}

# Reads class folders as our folder reader does (bytes decoded as UTF-8 with replacement);
# the peers' scripts share it (bench/text_train.py too).
READ_FOLDERS = r'''
def read(root):
    docs, y = [], []
    for c in sorted(os.listdir(root)):
        for f in sorted(os.listdir(os.path.join(root, c))):
            with open(os.path.join(root, c, f), "rb") as fh:
                docs.append(fh.read().decode("utf-8", "replace")); y.append(c)
    return docs, y
'''

SKLEARN_SPAM = r'''
import json, os, sys, time
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB
''' + READ_FOLDERS + r'''
t = time.perf_counter()
dtr, ytr = read(sys.argv[1]); dte, yte = read(sys.argv[2])
vec = CountVectorizer(); X = vec.fit_transform(dtr)
clf = MultinomialNB().fit(X, ytr)
acc = (clf.predict(vec.transform(dte)) == __import__("numpy").array(yte)).mean()
print(json.dumps({"seconds": time.perf_counter() - t, "accuracy": float(acc), "n_features": X.shape[1]}))
'''

SKLEARN_NB_FIT = r'''
import json, sys, time
from sklearn.datasets import load_svmlight_file
from sklearn.naive_bayes import MultinomialNB
X, y = load_svmlight_file(sys.argv[1])
t = time.perf_counter(); MultinomialNB().fit(X, y); s = time.perf_counter() - t
print(json.dumps({"seconds": s, "nnz": int(X.nnz)}))
'''

MAKE_MATRIX = r'''
import sys, numpy as np, scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
r = np.random.default_rng(0); n, f, k = 100_000, 100_000, 100
ind = np.sort(np.stack([r.choice(f, k, replace=False) for _ in range(n)]), axis=1).ravel()
X = sp.csr_matrix((r.integers(1, 4, n * k).astype(float), ind, np.arange(0, n * k + 1, k)), shape=(n, f))
dump_svmlight_file(X, r.integers(0, 20, n), sys.argv[1], zero_based=False)
'''


def timed(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (parsed JSON stdout, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r") as t:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, env=env,
                             check=True, capture_output=True, text=True).stdout
        rss_kib = int(t.read().strip().splitlines()[-1])
    return json.loads(out.strip().splitlines()[-1]), rss_kib / 1024


def split_spam(spam_dir, dest):
    from sklearn.model_selection import train_test_split
    with open(os.path.join(spam_dir, "index.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    labels = [r["label"] for r in rows]
    tr, te = train_test_split(range(len(rows)), test_size=0.2, random_state=0, stratify=labels)
    size = 0
    for part, idx in (("train", tr), ("test", te)):
        for i in idx:
            r = rows[i]
            d = os.path.join(dest, part, r["label"])
            os.makedirs(d, exist_ok=True)
            src = os.path.join(spam_dir, r["path"])
            shutil.copyfile(src, os.path.join(d, os.path.basename(src)))
            size += int(r["bytes"])
    return size


def median(xs):
    return statistics.median(xs)


def bench_spam(args, tmp):
    dest = os.path.join(tmp, "spam")
    corpus = split_spam(args.spam_dir, dest)
    tr, te = os.path.join(dest, "train"), os.path.join(dest, "test")
    ours_cmd = [os.path.join(ROOT, "target/release/examples/spam_end_to_end"), tr, te]
    peer_cmd = [sys.executable, "-c", SKLEARN_SPAM, tr, te]
    ours, peer = [], []
    for _ in range(args.repeats):
        ours.append(timed(ours_cmd))
        peer.append(timed(peer_cmd, PY_ENV))
    rows = []
    o, p = median([r[0]["seconds"] for r in ours]), median([r[0]["seconds"] for r in peer])
    rows.append(("SpamAssassin end to end (read, tokenize, vectorize, fit, predict), 2 threads",
                 o, p, ours[0][0]["accuracy"], peer[0][0]["accuracy"],
                 max(r[1] for r in ours), max(r[1] for r in peer)))
    print(f"corpus size {corpus / 2**20:.1f} MiB", file=sys.stderr)
    return rows, corpus


def bench_nb_fit(args, tmp):
    path = os.path.join(tempfile.gettempdir(), "hyperplane-bench-nb-fit.libsvm")
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-c", MAKE_MATRIX, path], env=PY_ENV, check=True)
    ours_cmd = [os.path.join(ROOT, "target/release/examples/nb_fit_bench"), path]
    peer_cmd = [sys.executable, "-c", SKLEARN_NB_FIT, path]
    ours, peer = [], []
    for _ in range(args.repeats):
        ours.append(timed(ours_cmd, {**os.environ, **ONE_THREAD}))
        peer.append(timed(peer_cmd, {**PY_ENV, **ONE_THREAD}))
    o, p = median([r[0]["seconds"] for r in ours]), median([r[0]["seconds"] for r in peer])
    nnz = ours[0][0]["nnz"]
    return [(f"MultinomialNB fit, CSR 100,000 x 100,000, {nnz / 1e6:.0f}M nnz, 20 classes, 1 thread "
             f"(ours {nnz / o / 1e6:.0f}M nnz/s, sklearn {nnz / p / 1e6:.0f}M nnz/s)",
             o, p, None, None, max(r[1] for r in ours), max(r[1] for r in peer))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="spam_e2e,nb_fit")
    ap.add_argument("--spam-dir", default=os.path.join(ROOT, "..", "shared", "data", "spamassassin"))
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane", "--examples"], cwd=ROOT, check=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        only = args.only.split(",")
        if "spam_e2e" in only:
            rows += bench_spam(args, tmp)[0]
        if "nb_fit" in only:
            rows += bench_nb_fit(args, tmp)
    print(f"\nmedian of {args.repeats} alternating runs\n")
    print("| benchmark | hyperplane (s) | scikit-learn (s) | speed-up | accuracy ours / sklearn | peak RSS ours / sklearn (MiB) |")
    print("|---|---|---|---|---|---|")
    for name, o, p, ao, ap_, mo, mp in rows:
        acc = f"{ao:.4f} / {ap_:.4f}" if ao is not None else "-"
        print(f"| {name} | {o:.3f} | {p:.3f} | {p / o:.1f}x | {acc} | {mo:.0f} / {mp:.0f} |")


if __name__ == "__main__":
    main()
