#!/usr/bin/env python3
"""Multilayer perceptron benchmarks: `hyperplane train --model mlp` against scikit-learn's
MLPClassifier on the same data, in one run.

Usage:  python3 bench/mlp.py [--repeats 3] [--epochs 20] [--skip-fashion]
Needs:  ../shared/peers/setup.sh (scikit-learn 1.9.1), Debian's dataset-fashion-mnist
        (installed here with apt-get when missing) and the release binary (built here with
        `cargo build --release -p hyperplane-cli`).

What it does:
- Fashion-MNIST (60,000 + 10,000 images of 28 x 28 pixels, /usr/share/datasets/fashion-mnist)
  and scikit-learn's digits (1,797 images of 8 x 8, split 75/25 stratified by seed 0),
  pixels divided by their maximum (255, 16), written once as CSV files (label last) that
  both tools read.
- The same network and training for both: hidden=100, relu, Adam (lr 1e-3), batches of 200,
  L2 1e-4, `--epochs` epochs exactly (no early stopping, no stop on a stalled loss),
  shuffled, seed 0. hyperplane is timed as users run it, whole `hyperplane train` process
  (reading the CSV, training, the training accuracy, writing the model); scikit-learn's
  `fit` in-process (after imports and the file read, which are excluded). hyperplane runs
  twice: in double precision (the default) and with `dtype=f32` (single-precision forward
  and backward passes); scikit-learn twice too: on float64 X (its default) and on float32 X
  (it then keeps weights, activations and products in float32). Ratios are at the same
  precision (f64 against float64, f32 against float32) and against scikit-learn's float64.
- The time of an epoch, for each tool, as (time of E epochs - time of 1 epoch) / (E - 1),
  so that reading, setup and the final report cancel out: from the medians of the runs,
  and, paired, from each repeat's own runs (the tools alternate within a repeat, so the
  ratio of a repeat is measured in the same minutes; their median and range are shown).
- Both on all cores (2 here; scikit-learn through OpenBLAS's threads) and on one thread
  (RAYON_NUM_THREADS=1 / OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=1).
- L-BFGS on digits (hidden=100, 200 iterations at most, tol 1e-4: scikit-learn's defaults).
- Test accuracy of every model and the peak RSS of every process (/usr/bin/time).
Prints medians and ratios as Markdown tables (paste into BENCHMARKS.md). Following the
peers' notes, OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for Python.
"""
import argparse
import gzip
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "hyperplane")
CACHE = os.path.join(tempfile.gettempdir(), "hyperplane-bench-mlp")
FASHION = "/usr/share/datasets/fashion-mnist"
PY_ENV = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
ONE_THREAD = {"RAYON_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}

SKLEARN = r'''
import json, sys, time, warnings
import numpy as np
from sklearn.neural_network import MLPClassifier
train, test, solver, epochs, dtype = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
def load(path):  # the CSV once, then its .npy copy (reading is not what is measured)
    try:
        a = np.load(path + ".npy")
    except FileNotFoundError:
        a = np.loadtxt(path, delimiter=",", skiprows=1)
        np.save(path + ".npy", a)
    return np.ascontiguousarray(a[:, :-1], dtype=dtype), a[:, -1].astype(int)
X, y = load(train)
Xt, yt = load(test)
kw = dict(hidden_layer_sizes=(100,), solver=solver, random_state=0, alpha=1e-4)
if solver == "adam":
    kw.update(batch_size=200, learning_rate_init=1e-3, max_iter=epochs, n_iter_no_change=10**6)
else:
    kw.update(max_iter=200)
warnings.simplefilter("ignore")
t = time.perf_counter()
m = MLPClassifier(**kw).fit(X, y)
fit = time.perf_counter() - t
assert m.coefs_[0].dtype == np.dtype(dtype)  # it trained in the precision asked for
print(json.dumps({"seconds": fit, "accuracy": float((m.predict(Xt) == yt).mean()),
                  "iterations": int(m.n_iter_), "loss": float(m.loss_)}))
'''


def write_csv(path, X, y):
    """Writes rows of pixel values (already scaled, as short decimals) and their label."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(",".join(f"p{j}" for j in range(len(X[0]))) + ",label\n")
        for row, label in zip(X, y):
            f.write(",".join("0" if v == 0 else f"{v:.6g}" for v in row) + f",{label}\n")
    os.replace(tmp, path)


def idx(path):
    """The array of an IDX file (gzip): images as rows of pixels, or labels."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * k: 8 + 4 * k], "big") for k in range(dims)]
    body = data[4 + 4 * dims:]
    if dims == 1:
        return list(body)
    width = shape[1] * shape[2]
    return [body[i * width:(i + 1) * width] for i in range(shape[0])]


def prepare():
    """The CSV files of both data sets, made once in CACHE."""
    os.makedirs(CACHE, exist_ok=True)
    files = {}
    fashion = {s: os.path.join(CACHE, f"fashion_{s}.csv") for s in ("train", "test")}
    if not os.path.isdir(FASHION):
        subprocess.run(["apt-get", "install", "-y", "-qq", "dataset-fashion-mnist"], check=True)
    for split, prefix in (("train", "train"), ("test", "t10k")):
        if not os.path.exists(fashion[split]):
            images = idx(os.path.join(FASHION, f"{prefix}-images-idx3-ubyte.gz"))
            labels = idx(os.path.join(FASHION, f"{prefix}-labels-idx1-ubyte.gz"))
            write_csv(fashion[split], [[v / 255 for v in img] for img in images], labels)
    files["fashion"] = fashion
    digits = {s: os.path.join(CACHE, f"digits_{s}.csv") for s in ("train", "test")}
    if not os.path.exists(digits["test"]):
        code = ("import sys\nfrom sklearn.datasets import load_digits\n"
                "from sklearn.model_selection import train_test_split\n"
                "X, y = load_digits(return_X_y=True)\n"
                "parts = train_test_split(X / 16, y, test_size=0.25, stratify=y, random_state=0)\n"
                "for path, X, y in ((sys.argv[1], parts[0], parts[2]), (sys.argv[2], parts[1], parts[3])):\n"
                "    with open(path, 'w') as f:\n"
                "        f.write(','.join(f'p{j}' for j in range(64)) + ',label\\n')\n"
                "        for r, l in zip(X, y):\n"
                "            f.write(','.join('0' if v == 0 else f'{v:.6g}' for v in r) + f',{l}\\n')\n")
        subprocess.run(["python3", "-c", code, digits["train"], digits["test"]], env=PY_ENV, check=True)
    files["digits"] = digits
    return files


def run(cmd, env=None):
    """Runs cmd under /usr/bin/time; returns (stdout, wall seconds, peak RSS MiB)."""
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name] + cmd, env=env,
                              capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{cmd[0]} failed: {done.stderr[-2000:]}")
        rss_kib = int(t.read().strip().splitlines()[-1])
    return done.stdout, wall, rss_kib / 1024


def ours(data, solver, epochs, threads, model, dtype="f64"):
    """Whole `hyperplane train` process, then `evaluate` on the test file (not timed)."""
    env = dict(os.environ, **(ONE_THREAD if threads == 1 else {}))
    params = ["hidden=100", f"solver={solver}", "seed=0", f"dtype={dtype}"]
    if solver == "adam":
        params += ["batch_size=200", f"max_iter={epochs}", "n_iter_no_change=1000000"]
    cmd = [BIN, "train", "--data", data["train"], "--model", "mlp", "--out", model]
    for p in params:
        cmd += ["--param", p]
    _, wall, rss = run(cmd, env=env)
    out = subprocess.run([BIN, "evaluate", "--model", model, "--data", data["test"], "--json"],
                         check=True, capture_output=True, text=True).stdout
    return wall, rss, json.loads(out)["accuracy"]


def sklearn(data, solver, epochs, threads, dtype="float64"):
    """`MLPClassifier.fit` in-process on X of the given dtype (float32 input keeps its weights
    and products in float32, float64 is its default)."""
    env = dict(PY_ENV, **(ONE_THREAD if threads == 1 else {}))
    out, _, rss = run(["python3", "-c", SKLEARN, data["train"], data["test"], solver, str(epochs), dtype],
                      env=env)
    r = json.loads(out.strip().splitlines()[-1])
    return r["seconds"], rss, r["accuracy"]


def peer(data, solver, epochs, threads, _model, dtype):
    return sklearn(data, solver, epochs, threads, dtype)


# key: (how it runs, its dtype, the scikit-learn key of the same precision, the table's name)
TOOLS = {
    "sk": (peer, "float64", "sk", "scikit-learn MLPClassifier fit, float64 (in-process)"),
    "sk32": (peer, "float32", "sk32", "scikit-learn MLPClassifier fit, float32 input (in-process)"),
    "ours": (ours, "f64", "sk", "hyperplane train (whole process)"),
    "ours32": (ours, "f32", "sk32", "hyperplane train dtype=f32 (whole process)"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--skip-fashion", action="store_true")
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane-cli"], cwd=ROOT, check=True)
    files = prepare()
    model = os.path.join(CACHE, "model.json")
    sets = ["digits"] + ([] if args.skip_fashion else ["fashion"])
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.repeats} runs, medians\n")
    print(f"Adam, hidden=100 relu, batches of 200, {args.epochs} epochs\n")
    print("Ratios compare each tool with scikit-learn in the same precision (float64 rows with its "
          "default, float32 rows with float32 input), and with scikit-learn's default float64.\n")
    print("| data | threads | tool | seconds, 1 epoch | seconds, all epochs | seconds per epoch "
          "| per epoch vs scikit-learn, same precision | same, paired: median (range) "
          "| vs scikit-learn float64 | peak RSS MiB | test accuracy |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in sets:
        data = files[name]
        for threads in (2, 1):
            t = {k + e: [] for k in TOOLS for e in ("1", "E")}
            rss, acc = {}, {}
            for _ in range(args.repeats):
                for e, key in ((1, "1"), (args.epochs, "E")):
                    for k, (run_tool, dtype, _, _) in TOOLS.items():
                        w, r, a = run_tool(data, "adam", e, threads, model, dtype)
                        t[k + key].append(w)
                        rss[k], acc[k] = max(rss.get(k, 0), r), a
            m = {k: statistics.median(v) for k, v in t.items()}
            per = {k: (m[k + "E"] - m[k + "1"]) / (args.epochs - 1) for k in TOOLS}
            # each repeat's tools ran within the same minute or two: the ratio of a repeat's
            # epochs is less exposed to the machine's drift than the ratio of medians
            each = {k: [(e - o) / (args.epochs - 1) for o, e in zip(t[k + "1"], t[k + "E"])] for k in TOOLS}
            for k, (_, _, peer, tool) in TOOLS.items():
                paired = sorted(p / q for p, q in zip(each[peer], each[k]))
                print(f"| {name} | {threads} | {tool} | {m[k + '1']:.2f} | {m[k + 'E']:.2f} | {per[k]:.3f} "
                      f"| {per[peer] / per[k]:.2f}x | {statistics.median(paired):.2f}x "
                      f"({paired[0]:.2f}-{paired[-1]:.2f}) | {per['sk'] / per[k]:.2f}x | {rss[k]:.0f} "
                      f"| {acc[k]:.4f} |")
    # scikit-learn's L-BFGS has no float32 path (scipy's optimiser holds the weights in float64,
    # so its coefs_ and products are float64 whatever X is): every row is against its float64.
    lbfgs = {k: v for k, v in TOOLS.items() if k != "sk32"}
    print("\nL-BFGS on digits, hidden=100 relu, scikit-learn's defaults (200 iterations, tol 1e-4); "
          "scikit-learn's L-BFGS runs in float64 whatever the input's dtype\n")
    print("| threads | tool | seconds | vs scikit-learn | peak RSS MiB | test accuracy |")
    print("|---|---|---|---|---|---|")
    for threads in (2, 1):
        t = {k: [] for k in lbfgs}
        rss, acc = {}, {}
        for _ in range(args.repeats):
            for k, (run_tool, dtype, _, _) in lbfgs.items():
                w, r, a = run_tool(files["digits"], "lbfgs", 0, threads, model, dtype)
                t[k].append(w)
                rss[k], acc[k] = r, a
        m = {k: statistics.median(v) for k, v in t.items()}
        for k, (_, _, _, tool) in lbfgs.items():
            print(f"| {threads} | {tool} | {m[k]:.2f} | {m['sk'] / m[k]:.2f}x | {rss[k]:.0f} | {acc[k]:.4f} |")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
