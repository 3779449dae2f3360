#!/usr/bin/env python3
"""Tabular CSV at scale: `hyperplane train` on UCI Adult repeated 6 times against scikit-learn.

Usage:  python3 bench/tabular.py [--repeats 3] [--copies 6]
Needs:  ../shared/peers/setup.sh (scikit-learn, pandas) and ../shared/data/adult/adult_{train,test}.csv.

What it does:
- writes the header of adult_train.csv and then its rows `--copies` times (6: 195,366 rows,
  raw CSV, `?` for missing values) to a temp dir;
- per round, in turn: for each of gaussian-nb and logistic-regression (defaults), the whole
  `hyperplane train --label-col income --missing category` process (read + encode + fit +
  training score + model file), and scikit-learn's pipeline in one process
  (pandas.read_csv + OneHotEncoder(handle_unknown="ignore") on the text columns, numbers
  passed through unscaled, + GaussianNB() / LogisticRegression(); GaussianNB needs dense
  input, so its encoder writes a dense array);
- reports medians of wall time and peak RSS (/usr/bin/time), scikit-learn's in-process times
  (pandas.read_csv alone, and read + encode + fit, imports excluded), test accuracy on
  adult_test.csv (`hyperplane evaluate`), and for logistic regression the iterations and how
  the fit ended (`inspect --json`; scikit-learn's ConvergenceWarning).
- reads and encodes the file in-process with the `read_encode_bench` example (median of 5:
  the CSV read and one-hot encoded to CSR as `train` does it, blocks parsed on every core),
  against pandas.read_csv's in-process time from the runs above.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import PY_ENV, ROOT, median, timed  # noqa: E402

ADULT = os.path.join(ROOT, "..", "shared", "data", "adult")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
KINDS = ("gaussian-nb", "logistic-regression")

SKLEARN = r'''
import json, sys, time, warnings
t0 = time.perf_counter()
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
imported = time.perf_counter()
train = pd.read_csv(sys.argv[1], skipinitialspace=True)
read = time.perf_counter() - imported
y = train.pop("income")
text = [c for c in train.columns if not pd.api.types.is_numeric_dtype(train[c])]
nb = sys.argv[3] == "gaussian-nb"
encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=not nb)
model = make_pipeline(ColumnTransformer([("onehot", encoder, text)], remainder="passthrough"),
                      GaussianNB() if nb else LogisticRegression())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", ConvergenceWarning)
    model.fit(train, y)
fit = time.perf_counter() - imported
test = pd.read_csv(sys.argv[2], skipinitialspace=True)
yt = test.pop("income")
print(json.dumps({"read_seconds": read, "fit_seconds": fit, "import_seconds": imported - t0,
                  "accuracy": float((model.predict(test) == yt).mean()),
                  "iterations": None if nb else int(model[-1].n_iter_.max()),
                  "converged": not any(issubclass(w.category, ConvergenceWarning) for w in caught)}))
'''


def make_file(copies, dest):
    """Adult train's header, then its rows `copies` times; returns (path, rows, bytes)."""
    with open(os.path.join(ADULT, "adult_train.csv")) as f:
        header, *rows = f.read().splitlines(keepends=True)
    path = os.path.join(dest, f"adult_x{copies}.csv")
    with open(path, "w") as f:
        f.write(header)
        for _ in range(copies):
            f.writelines(rows)
    return path, copies * len(rows), os.path.getsize(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--copies", type=int, default=6)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane-cli"], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane", "--example", "read_encode_bench"],
                   cwd=ROOT, check=True)
    cli = os.path.join(TARGET, "release", "hyperplane")
    read_encode = os.path.join(TARGET, "release", "examples", "read_encode_bench")
    test = os.path.join(ADULT, "adult_test.csv")
    common = ["--label-col", "income", "--missing", "category"]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        train, n_rows, size = make_file(args.copies, tmp)
        models = {k: os.path.join(tmp, f"{k}.json") for k in KINDS}

        def ours(kind):
            t = time.perf_counter()
            _, rss = timed_plain([cli, "train", "--data", train, "--model", kind, *common, "--out", models[kind]])
            return time.perf_counter() - t, rss

        def theirs(kind):
            t = time.perf_counter()
            out, rss = timed([sys.executable, "-c", SKLEARN, train, test, kind], env=PY_ENV)
            return time.perf_counter() - t, out, rss

        ours_runs = {k: [] for k in KINDS}
        their_runs = {k: [] for k in KINDS}
        for _ in range(args.repeats):
            for k in KINDS:
                ours_runs[k].append(ours(k))
                their_runs[k].append(theirs(k))
        print(f"\nUCI Adult train x{args.copies}: {n_rows:,} rows, {size / 2**20:.1f} MiB; median of "
              f"{args.repeats} alternating rounds; load average before / after: "
              f"{load_before:.2f} / {os.getloadavg()[0]:.2f}\n")
        print("| run | wall, whole process (s) | in-process: read / read + encode + fit (s) | peak RSS (MiB) "
              "| test accuracy | iterations, end |")
        print("|---|---|---|---|---|---|")
        for k in KINDS:
            s = their_runs[k]
            o = s[0][1]
            end = "-" if o["iterations"] is None else (
                f"{o['iterations']}, {'converged' if o['converged'] else 'ConvergenceWarning'}")
            print(f"| scikit-learn {k} | {median([r[0] for r in s]):.3f} "
                  f"| {median([r[1]['read_seconds'] for r in s]):.3f} / {median([r[1]['fit_seconds'] for r in s]):.3f} "
                  f"| {median([r[2] for r in s]):.0f} | {o['accuracy']:.4f} | {end} |")
            ev = json.loads(subprocess.run([cli, "evaluate", "--model", models[k], "--data", test, *common[2:],
                                            "--json"], check=True, capture_output=True, text=True).stdout)
            end = "-"
            if k == "logistic-regression":
                c = json.loads(subprocess.run([cli, "inspect", "--model", models[k], "--json"], check=True,
                                              capture_output=True, text=True).stdout)["linear"][0]["convergence"]
                end = f"{c['iterations']}, {c.get('solver', '?')}, " + (
                    "converged" if "warning" not in c else c["warning"]["kind"])
            r = ours_runs[k]
            print(f"| hyperplane train {k} | {median([x[0] for x in r]):.3f} | - | {median([x[1] for x in r]):.0f} "
                  f"| {ev['accuracy']:.4f} | {end} |")
        ours_read = json.loads(subprocess.run([read_encode, train, "income"], check=True, capture_output=True,
                                              text=True).stdout)
        pandas_read = median([r[1]["read_seconds"] for k in KINDS for r in their_runs[k]])
        print(f"\nRead + encode in-process: hyperplane {ours_read['read_encode_seconds']:.3f} s read and "
              f"one-hot encoded ({ours_read['features']} features, {ours_read['nnz']:,} non-zeros); "
              f"pandas.read_csv alone {pandas_read:.3f} s")


def timed_plain(cmd):
    """Runs cmd (no JSON output) under /usr/bin/time; returns (None, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r") as t:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, check=True, capture_output=True)
        return None, int(t.read().strip().splitlines()[-1]) / 1024


if __name__ == "__main__":
    main()
