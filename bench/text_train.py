#!/usr/bin/env python3
"""`hyperplane train` on a folder of e-mails against scikit-learn in-process, in one run.

Usage:  python3 bench/text_train.py [--repeats 5] [--spam-dir ../shared/data/spamassassin]
Needs:  ../shared/peers/setup.sh (scikit-learn 1.9.1) and the SpamAssassin raw corpus; the
        release binary is built here (`cargo build --release -p hyperplane-cli`, in
        $CARGO_TARGET_DIR when set, else target/).

What it does (issue 14, item 2):
- copies SpamAssassin into class folders (ham/, spam/) under a temp dir: all 6,046 messages
  (`all/`), and a stratified 80/20 split (`train/`, `test/`, random_state=0);
- alternating the tools, times the whole `hyperplane train --data FOLDER --model
  multinomial-nb` process (defaults: token counts, alpha = 1; it reads, tokenizes, fits,
  scores the training rows and saves the model) against scikit-learn in-process with
  imports excluded: the same files read (bytes decoded as UTF-8 with replacement),
  `CountVectorizer().fit_transform` and `MultinomialNB().fit`;
- on the split: the test accuracy of both models (ours by `hyperplane evaluate`, whole
  process and timed; scikit-learn's predict after the timed fit, timed apart);
- peak RSS of every process (/usr/bin/time), and the load average before and after.
Prints medians and ratios as a Markdown table (paste into BENCHMARKS.md). Following the
peers' notes, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for Python.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import READ_FOLDERS, split_spam  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BIN = os.path.join(TARGET, "release", "hyperplane")
PY_ENV = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}

SKLEARN = r'''
import json, os, sys, time
import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB
''' + READ_FOLDERS + r'''
t = time.perf_counter()
docs, y = read(sys.argv[1])
vec = CountVectorizer(); X = vec.fit_transform(docs)
clf = MultinomialNB().fit(X, y)
seconds = time.perf_counter() - t
out = {"seconds": seconds, "n_features": X.shape[1],
       "training_accuracy": float((clf.predict(X) == np.array(y)).mean())}
if len(sys.argv) > 2:
    t = time.perf_counter()
    dte, yte = read(sys.argv[2])
    out["accuracy"] = float((clf.predict(vec.transform(dte)) == np.array(yte)).mean())
    out["predict_seconds"] = time.perf_counter() - t
print(json.dumps(out))
'''


def run(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (stdout, wall seconds, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, env=env,
                              check=True, capture_output=True, text=True)
        wall = time.perf_counter() - start
        rss_kib = int(t.read().strip().splitlines()[-1])
    return done.stdout, wall, rss_kib / 1024


def class_folders(spam_dir, dest):
    """Copies the corpus into a stratified 80/20 split, dest/train/<label>/ and
    dest/test/<label>/ (bench/run.py's), and all of it into dest/all/<label>/; returns the
    corpus size in bytes."""
    size = split_spam(spam_dir, dest)
    for part in ("train", "test"):
        shutil.copytree(os.path.join(dest, part), os.path.join(dest, "all"), dirs_exist_ok=True)
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--spam-dir", default=os.path.join(ROOT, "..", "shared", "data", "spamassassin"))
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane-cli"], cwd=ROOT, check=True)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        size = class_folders(args.spam_dir, tmp)
        model = os.path.join(tmp, "model.json")
        train = lambda data: [BIN, "train", "--data", data, "--model", "multinomial-nb",
                              "--out", model, "--json"]
        results = {}
        for name in ("all", "train"):
            data = os.path.join(tmp, name)
            ours, peer = [], []
            for _ in range(args.repeats):
                out, wall, rss = run(train(data))
                ours.append((json.loads(out), wall, rss))
                peer_cmd = [sys.executable, "-c", SKLEARN, data]
                if name == "train":
                    peer_cmd.append(os.path.join(tmp, "test"))
                out, _, rss = run(peer_cmd, PY_ENV)
                peer.append((json.loads(out.strip().splitlines()[-1]), rss))
            results[name] = (ours, peer)
        # the model of the last `train` run is the split's
        evals = [run([BIN, "evaluate", "--model", model, "--data", os.path.join(tmp, "test"), "--json"])
                 for _ in range(args.repeats)]
    load_after = os.getloadavg()

    print(f"\nSpamAssassin, {size / 2**20:.1f} MiB; median of {args.repeats} alternating runs; "
          f"hyperplane on all cores ({os.cpu_count()}), scikit-learn single-threaded")
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}\n")
    print("| run | documents | hyperplane train, whole process (s) | scikit-learn read + fit, in-process (s) "
          "| speed-up | vocabulary ours / sklearn | training accuracy ours / sklearn "
          "| peak RSS ours / sklearn (MiB) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (ours, peer) in results.items():
        o = statistics.median(r[1] for r in ours)
        p = statistics.median(r[0]["seconds"] for r in peer)
        so, sp = ours[0][0], peer[0][0]
        print(f"| {name} | {so['n_samples']} | {o:.3f} (min {min(r[1] for r in ours):.3f}) "
              f"| {p:.3f} | {p / o:.1f}x | {so['n_features']} / {sp['n_features']} "
              f"| {so['training_accuracy']:.4f} / {sp['training_accuracy']:.4f} "
              f"| {max(r[2] for r in ours):.0f} / {max(r[1] for r in peer):.0f} |")
    ev = json.loads(evals[0][0])
    sp = results["train"][1][0][0]
    e = statistics.median(r[1] for r in evals)
    pp = statistics.median(r[0]["predict_seconds"] for r in results["train"][1])
    print(f"\n| test split ({ev['n_samples']} messages) | seconds | accuracy | peak RSS (MiB) |")
    print("|---|---|---|---|")
    print(f"| hyperplane evaluate, whole process | {e:.3f} | {ev['accuracy']:.4f} | "
          f"{max(r[2] for r in evals):.0f} |")
    print(f"| scikit-learn read + transform + predict, in-process | {pp:.3f} | {sp['accuracy']:.4f} | |")


if __name__ == "__main__":
    main()
