#!/usr/bin/env python3
"""L2 logistic regression and linear SVMs side by side: hyperplane, LIBLINEAR and scikit-learn on the same data.

Usage:  python3 bench/linear.py [--repeats 3] [--only adult,adult_csv,sparse,sgd,svm]
Needs:  ../shared/peers/setup.sh (scikit-learn 1.9.1, liblinear-train 2.3) and
        ../shared/data/adult/adult_{train,test}.{libsvm,csv}.

`adult_csv`: `hyperplane train --model logistic-regression` on the raw UCI Adult CSV (text
columns one-hot, numbers unscaled, `?` a category) with `solver=auto` (the default) and each
Newton solver and L-BFGS, whole process (read + encode + fit + write the model file), against
scikit-learn's default pipeline in one process (pandas.read_csv + OneHotEncoder(
handle_unknown="ignore") + LogisticRegression(), which stops at max_iter=100); the ratio is
scikit-learn's read + fit time (imports excluded) over our whole process; test accuracy on
adult_test.csv, iterations and how the fit ended from `inspect --json`.

The problem is LIBLINEAR's `-s 0 -c 1`: f(w) = 1/2 ||w||^2 + sum_n ln(1 + exp(-y_n w.x_n)),
no intercept. For each data set:
- LIBLINEAR: `liblinear-train -s 0 -c 1` (its default eps = 0.01); its objective is computed
  here from the weights in its model file, the way hyperplane reports its own;
- hyperplane: the release example `logistic_bench` with both Newton solvers (`newton`, the
  trust region of LIBLINEAR 2.3; `newton-ls`, the line search of LIBLINEAR's later releases;
  LIBLINEAR's stopping rule), single thread (RAYON_NUM_THREADS=1) and all threads, each at
  two tolerances, the loosest of 0.1, 0.03, 0.01, 0.001, 1e-4 that (a) reaches LIBLINEAR's
  objective (ratio: LIBLINEAR wall / ours wall) and (b) reaches scikit-learn's test accuracy
  within 0.1 percentage point (ratio: scikit-learn fit / ours fit);
  and L-BFGS with scikit-learn's own stopping rule (tol 1e-4 on the largest gradient entry
  of the mean loss) against scikit-learn;
- scikit-learn: LogisticRegression(solver="lbfgs", C=1, fit_intercept=False), default tol,
  max_iter=1000, fit time only (OMP/OPENBLAS threads 1).
`sgd`: seconds per epoch of Perceptron and SGDClassifier (hinge, log; 5 shuffled epochs,
no early stopping) against the release example `sgd_bench` on the sparse set, ours on one
thread and on all threads (the SGD epochs use a second thread to gather the shuffled rows).
`svm`: the linear SVM on the sparse set, LIBLINEAR's `-s 1 -c 1` (squared hinge) and
`-s 3 -c 1` (hinge), dual coordinate descent, default eps 0.1, no bias, against the release
example `linear_svm_bench` (`linear-svm`, same loss, `bias=none`, one thread: the descent is
sequential) at the loosest of the tolerances 0.1, 0.07, 0.05, 0.03, 0.01, 0.001 whose primal objective
`1/2 ||w||^2 + C sum_n xi(y_n w.x_n)` is at most LIBLINEAR's (computed here from its model
file); ratio: ours wall / LIBLINEAR wall.
Binaries are looked for under $CARGO_TARGET_DIR (else ROOT/target). Each of the `--repeats` rounds runs LIBLINEAR, scikit-learn and every hyperplane setting once,
in turn, so the shared machine's slow spells fall on all tools alike; figures are medians over
the rounds. A first LIBLINEAR and scikit-learn run before the rounds gives the objective and
the accuracy that the tolerance search aims at.
Times: total wall time of each process (reading + fit; LIBLINEAR reports nothing finer),
and the fit alone for hyperplane and scikit-learn. Peak RSS from /usr/bin/time.
The sparse set (200,000 + 20,000 test rows x 50,000 features, 80 non-zeros per row, labels
from a random sparse hyperplane with 10% flipped, seed 0) is written once to
/tmp/hyperplane_sparse_{train,test}.libsvm for the peers to reuse.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import ONE_THREAD, PY_ENV, ROOT, median, timed  # noqa: E402
from tabular import SKLEARN as SKLEARN_TABLE  # noqa: E402

ADULT = os.path.join(ROOT, "..", "shared", "data", "adult")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BIN = os.path.join(TARGET, "release", "examples", "logistic_bench")
SGD_BIN = os.path.join(TARGET, "release", "examples", "sgd_bench")
SVM_BIN = os.path.join(TARGET, "release", "examples", "linear_svm_bench")
EPOCHS = 5

SKLEARN_SGD = r'''
import json, sys, time, warnings
import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import Perceptron, SGDClassifier
warnings.simplefilter("ignore")
X, y = load_svmlight_file(sys.argv[1])
Xt, yt = load_svmlight_file(sys.argv[2], n_features=X.shape[1])
for M in (X, Xt):  # SGDClassifier takes 32-bit indices only
    M.indices = M.indices.astype(np.int32); M.indptr = M.indptr.astype(np.int32)
E = int(sys.argv[3])
for name, m in [("perceptron", Perceptron(max_iter=E, tol=None, random_state=0)),
                ("sgd hinge", SGDClassifier(loss="hinge", max_iter=E, tol=None, random_state=0)),
                ("sgd log", SGDClassifier(loss="log_loss", max_iter=E, tol=None, random_state=0))]:
    t = time.perf_counter(); m.fit(X, y); s = time.perf_counter() - t
    print(json.dumps({"learner": name, "fit_seconds": s, "epoch_seconds": s / E,
                      "accuracy": float((m.predict(Xt) == yt).mean())}))
'''

SKLEARN = r'''
import json, sys, time
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression
X, y = load_svmlight_file(sys.argv[1])
Xt, yt = load_svmlight_file(sys.argv[2], n_features=X.shape[1])
t = time.perf_counter()
m = LogisticRegression(solver="lbfgs", C=1.0, fit_intercept=False, max_iter=1000).fit(X, y)
s = time.perf_counter() - t
print(json.dumps({"fit_seconds": s, "accuracy": float((m.predict(Xt) == yt).mean())}))
'''

MAKE_SPARSE = r'''
import sys, numpy as np, scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file
r = np.random.default_rng(0); n, f, k = 220_000, 50_000, 80
ind = np.sort(np.stack([r.choice(f, k, replace=False) for _ in range(n)]), axis=1).ravel()
X = sp.csr_matrix((r.random(n * k), ind, np.arange(0, n * k + 1, k)), shape=(n, f))
w = r.standard_normal(f) * (r.random(f) < 0.2)
y = np.where(X @ w > np.median(X @ w), 1, -1); flip = r.random(n) < 0.1; y[flip] = -y[flip]
dump_svmlight_file(X[:200_000], y[:200_000], sys.argv[1], zero_based=False)
dump_svmlight_file(X[200_000:], y[200_000:], sys.argv[2], zero_based=False)
'''


def liblinear_objective(model, train, c=1.0, loss="log"):
    """1/2 ||w||^2 + C sum err(y w.x) of a liblinear-train model (no bias): err(z) is
    ln(1 + exp(-z)) (`log`), max(0, 1 - z) (`hinge`) or max(0, 1 - z)^2 (`squared_hinge`)."""
    import numpy as np
    lines = open(model).read().split("\n")
    first = int(next(l for l in lines if l.startswith("label")).split()[1])
    w = np.array([float(l) for l in lines[lines.index("w") + 1:] if l.strip()])
    f = 0.5 * w @ w
    for line in open(train):
        parts = line.split()
        y = 1.0 if float(parts[0]) == first else -1.0
        s = sum(w[int(j) - 1] * float(v) for j, v in (p.split(":") for p in parts[1:]) if int(j) <= len(w))
        z = y * s
        f += c * (np.logaddexp(0.0, -z) if loss == "log" else
                  max(0.0, 1.0 - z) ** (2 if loss == "squared_hinge" else 1))
    return float(f)


def bench(name, train, test, repeats, tmp):
    model = os.path.join(tmp, name + ".model")

    def liblinear():
        t = time.perf_counter()
        with tempfile.NamedTemporaryFile("r") as tf:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name, "liblinear-train", "-q",
                            "-s", "0", "-c", "1", train, model], check=True)
            rss = int(tf.read().strip().splitlines()[-1]) / 1024
        return time.perf_counter() - t, None, rss

    def sklearn():
        t = time.perf_counter()
        o, rss = timed([sys.executable, "-c", SKLEARN, train, test], env=dict(PY_ENV, **ONE_THREAD))
        return time.perf_counter() - t, o, rss

    def ours(threads, tol, solver="newton"):
        t = time.perf_counter()
        o, rss = timed([BIN, train, test, "1", tol, solver], env=dict(os.environ, RAYON_NUM_THREADS=threads))
        return time.perf_counter() - t, o, rss

    liblinear()
    ll_obj = liblinear_objective(model, train)
    pred = subprocess.run(["liblinear-predict", test, model, os.path.join(tmp, "out")],
                          capture_output=True, text=True, check=True).stdout
    ll_acc = float(pred.split("=")[1].split("%")[0]) / 100
    sk_acc = sklearn()[1]["accuracy"]
    # for each thread count and Newton solver, the loosest tolerance reaching LIBLINEAR's
    # objective, and the loosest whose test accuracy is within 0.1 percentage point of
    # scikit-learn's (or above it); then L-BFGS stopped by scikit-learn's own rule
    configs = []
    for threads in ("1", str(os.cpu_count())):
        for solver in ("newton", "newton-ls"):
            reach, match = None, None
            for tol in ("0.1", "0.03", "0.01", "0.001", "0.0001"):
                out = ours(threads, tol, solver)[1]
                if match is None and out["accuracy"] >= sk_acc - 1e-3:
                    match = tol
                if reach is None and out["objective"] <= ll_obj:
                    reach = tol
                if reach and match:
                    break
            if reach:
                configs.append((f"{solver} tol={reach} (LIBLINEAR's objective)", threads, reach, solver))
            if match:
                configs.append((f"{solver} tol={match} (scikit-learn's accuracy)", threads, match, solver))
        configs.append(("lbfgs tol=1e-4 (scikit-learn's rule)", threads, "0.0001", "lbfgs"))
    # rounds: every tool once per round, alternating, so a slow spell of the shared machine
    # falls on all of them alike
    settings = list(dict.fromkeys(c[1:] for c in configs))  # one run serves both goals
    ll_runs, sk_runs, our_runs = [], [], {k: [] for k in settings}
    for _ in range(repeats):
        ll_runs.append(liblinear())
        sk_runs.append(sklearn())
        for k in settings:
            our_runs[k].append(ours(*k))
    ll_wall = median([r[0] for r in ll_runs])
    sk_fit = median([r[1]["fit_seconds"] for r in sk_runs])
    rows = [(f"{name}: LIBLINEAR -s 0 -c 1", ll_wall, None, ll_obj, ll_acc, ll_runs[0][2], "-"),
            (f"{name}: scikit-learn lbfgs", median([r[0] for r in sk_runs]), sk_fit, None, sk_acc,
             sk_runs[0][2], "-")]
    for c in configs:
        runs = our_runs[c[1:]]
        wall, fit = median([r[0] for r in runs]), median([r[1]["fit_seconds"] for r in runs])
        ratio = (f"LIBLINEAR wall / ours {ll_wall / wall:.2f}x" if "LIBLINEAR" in c[0]
                 else f"sklearn fit / ours {sk_fit / fit:.2f}x")
        o = runs[0][1]
        rows.append((f"{name}: hyperplane {c[0]}, {c[1]} thread(s)", wall, fit, o["objective"],
                     o["accuracy"], runs[0][2], ratio))
    return rows


def bench_svm(train, test, repeats, tmp):
    """LIBLINEAR -s 1 / -s 3 against linear-svm at the loosest tolerance reaching its
    primal objective, both whole processes, alternating in each round."""
    rows = []
    for loss, solver in (("squared_hinge", "1"), ("hinge", "3")):
        model = os.path.join(tmp, f"svm_s{solver}.model")

        def liblinear():
            t = time.perf_counter()
            with tempfile.NamedTemporaryFile("r") as tf:
                subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name, "liblinear-train", "-q",
                                "-s", solver, "-c", "1", train, model], check=True)
                rss = int(tf.read().strip().splitlines()[-1]) / 1024
            return time.perf_counter() - t, rss

        def ours(tol):
            t = time.perf_counter()
            o, rss = timed([SVM_BIN, train, test, loss, tol], env=dict(os.environ, **ONE_THREAD))
            return time.perf_counter() - t, o, rss

        liblinear()
        ll_obj = liblinear_objective(model, train, loss=loss)
        pred = subprocess.run(["liblinear-predict", test, model, os.path.join(tmp, "out")],
                              capture_output=True, text=True, check=True).stdout
        ll_acc = float(pred.split("=")[1].split("%")[0]) / 100
        tol = next((t for t in ("0.1", "0.07", "0.05", "0.03", "0.01", "0.001") if ours(t)[1]["objective"] <= ll_obj),
                   None)
        if tol is None:
            print(f"linear-svm loss={loss} did not reach LIBLINEAR's objective {ll_obj} at tol 0.001")
            continue
        ll_runs, our_runs = [], []
        for _ in range(repeats):
            ll_runs.append(liblinear())
            our_runs.append(ours(tol))
        ll_wall, wall = median([r[0] for r in ll_runs]), median([r[0] for r in our_runs])
        o = our_runs[0][1]
        rows.append((f"sparse 200k x 50k: LIBLINEAR -s {solver} -c 1", ll_wall, None, ll_obj, ll_acc,
                     ll_runs[0][1], "-"))
        rows.append((f"sparse 200k x 50k: hyperplane linear-svm loss={loss} tol={tol} "
                     f"(LIBLINEAR's objective; {o['iterations']} passes, dual {o['dual_objective']:.4f}), 1 thread",
                     wall, median([r[1]["fit_seconds"] for r in our_runs]), o["objective"],
                     o["accuracy"], our_runs[0][2], f"ours / LIBLINEAR wall {wall / ll_wall:.2f}x"))
    return rows


def bench_sgd(train, test, repeats):
    """Seconds per epoch, ours on 1 thread and on all threads (the epochs are sequential; a
    second thread gathers the shuffled rows), against scikit-learn (1 thread)."""
    runs = {"1 thread": ({}, dict(os.environ, **ONE_THREAD)), "all threads": ({}, dict(os.environ))}
    theirs = {}
    for _ in range(repeats):
        cases = [(store, [SGD_BIN, train, test, str(EPOCHS)], env) for store, env in runs.values()]
        cases.append((theirs, [sys.executable, "-c", SKLEARN_SGD, train, test, str(EPOCHS)],
                      dict(PY_ENV, **ONE_THREAD)))
        for store, cmd, env in cases:
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                r = json.loads(line)
                store.setdefault(r["learner"], []).append((r["epoch_seconds"], r["accuracy"]))
    print(f"\nepochs on the sparse set, {EPOCHS} per fit, median of {repeats} fits\n")
    print("| learner | hyperplane s/epoch, 1 thread / all | scikit-learn s/epoch | ratio, 1 thread / all "
          "| accuracy ours / peer |")
    print("|---|---|---|---|---|")
    one, every = (store for store, _ in runs.values())
    for name in one:
        a, b = median([r[0] for r in one[name]]), median([r[0] for r in every[name]])
        c = median([r[0] for r in theirs[name]])
        print(f"| {name} | {a:.4f} / {b:.4f} | {c:.4f} | {c / a:.2f}x / {c / b:.2f}x faster | "
              f"{every[name][0][1]:.4f} / {theirs[name][0][1]:.4f} |")


def bench_adult_csv(repeats, tmp):
    """`hyperplane train` on the raw UCI Adult CSV (one-hot of the text columns, numbers
    unscaled) with each logistic solver, whole process, against scikit-learn's default
    pipeline (pandas + OneHotEncoder(handle_unknown="ignore") + LogisticRegression()), in
    alternating rounds; accuracy on adult_test.csv."""
    train, test = os.path.join(ADULT, "adult_train.csv"), os.path.join(ADULT, "adult_test.csv")
    cli = os.path.join(TARGET, "release", "hyperplane")
    model = os.path.join(tmp, "adult_csv.json")
    common = ["--label-col", "income", "--missing", "category"]

    def ours(solver):
        params = [] if solver == "auto" else ["--param", f"solver={solver}"]
        t = time.perf_counter()
        with tempfile.NamedTemporaryFile("r") as tf:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name, cli, "train", "--data", train,
                            "--model", "logistic-regression", *common, *params, "--out", model],
                           check=True, capture_output=True)
            rss = int(tf.read().strip().splitlines()[-1]) / 1024
        return time.perf_counter() - t, rss

    def report():
        ev = json.loads(subprocess.run([cli, "evaluate", "--model", model, "--data", test, *common[2:], "--json"],
                                       check=True, capture_output=True, text=True).stdout)
        c = json.loads(subprocess.run([cli, "inspect", "--model", model, "--json"], check=True,
                                      capture_output=True, text=True).stdout)["linear"][0]["convergence"]
        return ev["accuracy"], c

    def sklearn():
        t = time.perf_counter()
        o, rss = timed([sys.executable, "-c", SKLEARN_TABLE, train, test, "logistic-regression"], env=PY_ENV)
        return time.perf_counter() - t, o, rss

    solvers = ("auto", "newton-cholesky", "newton", "newton-ls", "lbfgs")
    runs = {s: [] for s in solvers}
    sk_runs = []
    for _ in range(repeats):
        sk_runs.append(sklearn())
        for s in solvers:
            runs[s].append(ours(s))
    sk_wall = median([r[0] for r in sk_runs])
    sk_fit = median([r[1]["fit_seconds"] for r in sk_runs])
    o = sk_runs[0][1]
    print(f"\nUCI Adult CSV (32,561 rows, raw: text columns one-hot, numbers unscaled), median of {repeats} "
          f"alternating rounds, load average before / after: {LOAD_BEFORE} / {os.getloadavg()[0]:.2f}\n")
    print("| run | wall (s) | ratio to scikit-learn's in-process read + fit | test accuracy | iterations | ended | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| scikit-learn pandas + OneHotEncoder + LogisticRegression() (lbfgs, max_iter=100), whole process "
          f"| {sk_wall:.3f} (read + fit {sk_fit:.3f}, imports {o['import_seconds']:.2f}) | - | {o['accuracy']:.4f} "
          f"| {o['iterations']} | {'converged' if o['converged'] else 'ConvergenceWarning'} | {sk_runs[0][2]:.0f} |")
    for s in solvers:
        ours(s)
        acc, c = report()
        wall = median([r[0] for r in runs[s]])
        ended = "converged" if "warning" not in c else c["warning"]["kind"]
        print(f"| hyperplane train solver={s} (ran {c.get('solver', '?')}), whole process | {wall:.3f} "
              f"| {sk_fit / wall:.2f}x | {acc:.4f} | {c['iterations']} | {ended} | {median([r[1] for r in runs[s]]):.0f} |")


LOAD_BEFORE = f"{os.getloadavg()[0]:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default="adult,adult_csv,sparse,sgd,svm")
    args = ap.parse_args()
    sections = args.only.split(",")
    if set(sections) & {"adult", "sparse", "sgd", "svm"}:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane", "--example", "logistic_bench",
                        "--example", "sgd_bench", "--example", "linear_svm_bench"], cwd=ROOT, check=True)
    if "adult_csv" in sections:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "hyperplane-cli"], cwd=ROOT, check=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if "adult_csv" in sections:
            bench_adult_csv(args.repeats, tmp)
        if "adult" in sections:
            rows += bench("adult", os.path.join(ADULT, "adult_train.libsvm"),
                          os.path.join(ADULT, "adult_test.libsvm"), args.repeats, tmp)
        tr, te = "/tmp/hyperplane_sparse_train.libsvm", "/tmp/hyperplane_sparse_test.libsvm"
        if ("sparse" in args.only or "sgd" in args.only or "svm" in args.only) and not (os.path.exists(tr) and os.path.exists(te)):
            subprocess.run([sys.executable, "-c", MAKE_SPARSE, tr, te], env=PY_ENV, check=True)
        if "sparse" in args.only:
            rows += bench("sparse 200k x 50k", tr, te, args.repeats, tmp)
        if "sgd" in args.only:
            bench_sgd(tr, te, args.repeats)
        if "svm" in args.only:
            rows += bench_svm(tr, te, args.repeats, tmp)
    print(f"\nmedian of {args.repeats} runs\n")
    print("| run | wall (s) | fit (s) | objective | test accuracy | peak RSS (MiB) | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, wall, fit, obj, acc, rss, ratio in rows:
        fit_s = f"{fit:.3f}" if fit is not None else "-"
        obj_s = f"{obj:.4f}" if obj is not None else "-"
        print(f"| {name} | {wall:.3f} | {fit_s} | {obj_s} | {acc:.4f} | {rss:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
