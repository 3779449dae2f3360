#!/usr/bin/env python3
"""Kernel SVM benchmarks: hyperplane against LIBSVM (svm-train / svm-predict) and
scikit-learn's SVC on the same data, in one run.

Usage:  python3 bench/svm.py [--repeats 3] [--data-dir ../shared/data/adult]
Needs:  ../shared/peers/setup.sh (libsvm-tools 3.24, scikit-learn 1.9.1) and the release
        binary (built here with `cargo build --release -p hyperplane-cli`).

What it does, on adult_train.libsvm / adult_test.libsvm (32,561 / 16,281 rows, 108
features), RBF kernel with LIBSVM's defaults (C = 1, gamma = 1 / n_features, eps 1e-3,
shrinking, 100 MB cache for LIBSVM's default -m 100 and ours):
- train, whole process, alternating the tools: `svm-train` (one thread: LIBSVM has no
  threads), `hyperplane train --model svc --param gamma=auto` on all cores and with
  `--threads 1` (our `train` also predicts the training rows for the training accuracy it
  prints, so its time includes one full prediction that svm-train does not make);
  scikit-learn `SVC(gamma="auto", cache_size=100)` fit in-process (after imports and the
  file read);
- predict the test file, whole process: `svm-predict` and `hyperplane evaluate`, and the
  rows per second of each;
- objective, support vectors and test accuracy of every model, peak RSS of every process
  (/usr/bin/time).
- the cost of probability estimates (`probability=true`, `svm-train -b 1`,
  `SVC(probability=True)`: Platt scaling on an internal 5-fold cross-validation, so about
  six fits) on the first 6,000 training rows, as the ratio of each tool's time with and
  without them.
Prints medians and ratios as Markdown tables (paste into BENCHMARKS.md). Following the
peers' notes, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for Python.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "hyperplane")
PY_ENV = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}

SKLEARN_PROBA = r'''
import json, sys, time
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC
X, y = load_svmlight_file(sys.argv[1], n_features=108)
X.indices = X.indices.astype("int32"); X.indptr = X.indptr.astype("int32")
out = {}
for proba in (False, True):
    t = time.perf_counter()
    SVC(gamma="auto", cache_size=100, probability=proba, random_state=0).fit(X, y)
    out[str(proba)] = time.perf_counter() - t
print(json.dumps(out))
'''

SKLEARN = r'''
import json, sys, time
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC
X, y = load_svmlight_file(sys.argv[1], n_features=108)
Xt, yt = load_svmlight_file(sys.argv[2], n_features=108)
for m in (X, Xt):  # SVC takes int32 CSR indices only
    m.indices = m.indices.astype("int32"); m.indptr = m.indptr.astype("int32")
t = time.perf_counter()
m = SVC(gamma="auto", cache_size=100).fit(X, y)
fit = time.perf_counter() - t
t = time.perf_counter()
acc = float((m.predict(Xt) == yt).mean())
print(json.dumps({"seconds": fit, "predict_seconds": time.perf_counter() - t,
                  "n_sv": int(m.n_support_.sum()), "accuracy": acc}))
'''


def run(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (stdout, wall seconds, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{cmd[0]} failed: {done.stderr[-2000:]}")
        out = done.stdout
        wall = time.perf_counter() - start
        rss_kib = int(t.read().strip().splitlines()[-1])
    return out, wall, rss_kib / 1024


def median(xs):
    return statistics.median(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data-dir", default=os.path.join(ROOT, "..", "shared", "data", "adult"))
    args = ap.parse_args()
    train = os.path.join(args.data_dir, "adult_train.libsvm")
    test = os.path.join(args.data_dir, "adult_test.libsvm")
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane-cli"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp()
    lib_model, our_model = os.path.join(tmp, "adult.model"), os.path.join(tmp, "adult.json")
    rows = {k: {"t": [], "rss": []} for k in
            ["libsvm", "ours", "ours1", "sklearn", "libsvm_predict", "ours_predict"]}
    facts = {}
    one = dict(os.environ, RAYON_NUM_THREADS="1")
    for _ in range(args.repeats):
        out, wall, rss = run(["svm-train", "-m", "100", train, lib_model])
        rows["libsvm"]["t"].append(wall); rows["libsvm"]["rss"].append(rss)
        obj = re.search(r"obj = (\S+),", out).group(1)
        facts["libsvm"] = {"objective": float(obj), "n_sv": int(re.search(r"Total nSV = (\d+)", out).group(1))}
        for key, extra, env in [("ours", [], None), ("ours1", ["--threads", "1"], one)]:
            _, wall, rss = run([BIN, "train", "--data", train, "--model", "svc", "--param", "gamma=auto",
                                "--param", "cache_mb=100", "--out", our_model] + extra, env=env)
            rows[key]["t"].append(wall); rows[key]["rss"].append(rss)
        out, wall, rss = run(["python3", "-c", SKLEARN, train, test], env=PY_ENV)
        sk = json.loads(out.strip().splitlines()[-1])
        rows["sklearn"]["t"].append(sk["seconds"]); rows["sklearn"]["rss"].append(rss)
        facts["sklearn"] = {"n_sv": sk["n_sv"], "accuracy": sk["accuracy"]}
        out, wall, rss = run(["svm-predict", test, lib_model, os.path.join(tmp, "pred")])
        rows["libsvm_predict"]["t"].append(wall); rows["libsvm_predict"]["rss"].append(rss)
        facts["libsvm"]["accuracy"] = float(re.search(r"Accuracy = ([\d.]+)%", out).group(1)) / 100
        out, wall, rss = run([BIN, "evaluate", "--model", our_model, "--data", test, "--json"])
        rows["ours_predict"]["t"].append(wall); rows["ours_predict"]["rss"].append(rss)
        facts["ours"] = {"accuracy": json.loads(out)["accuracy"]}
    info = json.loads(subprocess.run([BIN, "inspect", "--model", our_model, "--json"],
                                     check=True, capture_output=True, text=True).stdout)
    facts["ours"].update({"objective": info["svm"]["objective"], "n_sv": info["svm"]["n_support"]})
    n_test = sum(1 for _ in open(test))
    m = {k: median(v["t"]) for k, v in rows.items()}
    rss = {k: max(v["rss"]) for k, v in rows.items()}
    lib = facts["libsvm"]
    print(f"adult RBF (C=1, gamma=1/108, eps 1e-3), {args.repeats} runs, medians\n")
    print("| run | seconds | vs LIBSVM | peak RSS MiB | objective | nSV | test accuracy |")
    print("|---|---|---|---|---|---|---|")
    print(f"| svm-train (1 thread) | {m['libsvm']:.2f} | 1.00 | {rss['libsvm']:.0f} | {lib['objective']:.6f} | {lib['n_sv']} | {lib['accuracy']:.4f} |")
    ours = facts["ours"]
    rel = abs(ours["objective"] - lib["objective"]) / abs(lib["objective"])
    for key, name in [("ours", "hyperplane train (2 threads)"), ("ours1", "hyperplane train (1 thread)")]:
        print(f"| {name} | {m[key]:.2f} | {m[key] / m['libsvm']:.2f} | {rss[key]:.0f} | {ours['objective']:.6f} (rel. diff {rel:.1e}) | {ours['n_sv']} | {ours['accuracy']:.4f} |")
    sk = facts["sklearn"]
    print(f"| scikit-learn SVC fit (in-process) | {m['sklearn']:.2f} | {m['sklearn'] / m['libsvm']:.2f} | {rss['sklearn']:.0f} | | {sk['n_sv']} | {sk['accuracy']:.4f} |")
    print()
    print("| predict 16,281 test rows | seconds | rows/s | peak RSS MiB |")
    print("|---|---|---|---|")
    for key, name in [("libsvm_predict", "svm-predict"), ("ours_predict", "hyperplane evaluate (2 threads)")]:
        print(f"| {name} | {m[key]:.2f} | {n_test / m[key]:.0f} | {rss[key]:.0f} |")

    probability_cost(args.repeats, train, tmp)


def probability_cost(repeats, train, tmp):
    """Times each tool with and without probability estimates on the first 6,000 rows."""
    subset = os.path.join(tmp, "adult_6000.libsvm")
    with open(train) as src, open(subset, "w") as dst:
        for _, line in zip(range(6000), src):
            dst.write(line)
    model = os.path.join(tmp, "subset.model")
    times = {k: [] for k in ["libsvm", "libsvm_b", "ours", "ours_b", "sklearn", "sklearn_b"]}
    for _ in range(repeats):
        for key, extra in [("libsvm", []), ("libsvm_b", ["-b", "1"])]:
            _, wall, _ = run(["svm-train", "-m", "100"] + extra + [subset, model])
            times[key].append(wall)
        for key, extra in [("ours", []), ("ours_b", ["--param", "probability=true"])]:
            _, wall, _ = run([BIN, "train", "--data", subset, "--model", "svc", "--param", "gamma=auto",
                              "--param", "cache_mb=100", "--out", model + ".json"] + extra)
            times[key].append(wall)
        out, _, _ = run(["python3", "-c", SKLEARN_PROBA, subset], env=PY_ENV)
        sk = json.loads(out.strip().splitlines()[-1])
        times["sklearn"].append(sk["False"]); times["sklearn_b"].append(sk["True"])
    m = {k: median(v) for k, v in times.items()}
    print(f"\nprobability estimates, first 6,000 adult rows, {repeats} runs, medians\n")
    print("| tool | seconds without | seconds with | cost (with / without) | with, vs svm-train -b 1 |")
    print("|---|---|---|---|---|")
    for key, name in [("libsvm", "svm-train (-b 1)"), ("ours", "hyperplane train (probability=true, 2 threads)"),
                      ("sklearn", "scikit-learn SVC fit (probability=True, in-process)")]:
        print(f"| {name} | {m[key]:.2f} | {m[key + '_b']:.2f} | {m[key + '_b'] / m[key]:.2f} | {m[key + '_b'] / m['libsvm_b']:.2f} |")


if __name__ == "__main__":
    main()
