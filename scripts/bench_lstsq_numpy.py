"""Time numpy.linalg.lstsq on the problem crates/hyperplane/examples/lstsq_bench.rs solves:
a dense 100,000 x 100 design plus a bias column, the best of 5 runs.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python3 scripts/bench_lstsq_numpy.py
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python3 scripts/bench_lstsq_numpy.py
"""

import sys
import time

import numpy as np

n, p = (int(a) for a in sys.argv[1:3]) if len(sys.argv) > 2 else (100_000, 100)
rng = np.random.default_rng(0)
X = rng.standard_normal((n, p))
y = X @ rng.standard_normal(p) + 0.1 * rng.standard_normal(n)
A = np.c_[X, np.ones(n)]  # the intercept as a column, as LinearRegression's lstsq sees it

best = float("inf")
for _ in range(5):
    t = time.perf_counter()
    w, _, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    best = min(best, time.perf_counter() - t)
print(f"numpy.linalg.lstsq {n} x {p + 1}: best of 5 {best * 1e3:.1f} ms (rank {rank})")
