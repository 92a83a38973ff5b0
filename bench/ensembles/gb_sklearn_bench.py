#!/usr/bin/python3
"""scikit-learn side of bench/ensembles gradient boosting (run by gb-bench.ts; Debian's
Python, scikit-learn 1.2, OMP_NUM_THREADS=1 set by the caller).

`gb_sklearn_bench.py DIR data` writes make_classification(n_samples=100000, n_features=20,
n_informative=10, random_state=0) as raw little-endian float64 (row-major X) and int32 (y)
into DIR, with the 75/25 split train_test_split(test_size=0.25, random_state=0) as an int32
list of test rows.
`gb_sklearn_bench.py DIR fit` times HistGradientBoostingClassifier(max_iter=100,
early_stopping=False) — 100 iterations, default leaves (31) — on all 100,000 rows (best of 2)
(wall and CPU time) and on the 75,000 training rows, with its accuracy on the 25,000 test rows; one JSON line.
gb-bench.ts calls `fit` before and after its own timings and keeps the best of each side.
`fit` also times XGBoost 1.7 (Debian's python3-xgboost) when it is installed: XGBClassifier with
tree_method="hist", 100 rounds, n_jobs=1, its other parameters at their defaults (depth-wise
trees of max_depth 6, learning rate 0.3, 256 bins), the same way; "xgboost": null otherwise.
"""
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import train_test_split

out, mode = sys.argv[1], sys.argv[2]

if mode == "data":
    X, y = make_classification(n_samples=100_000, n_features=20, n_informative=10, random_state=0)
    tr, te = train_test_split(np.arange(len(y)), test_size=0.25, random_state=0)
    X.astype("<f8").tofile(os.path.join(out, "X.f64"))
    y.astype("<i4").tofile(os.path.join(out, "y.i32"))
    np.sort(te).astype("<i4").tofile(os.path.join(out, "test.i32"))
    sys.exit(0)

X = np.fromfile(os.path.join(out, "X.f64"), dtype="<f8").reshape(-1, 20)
y = np.fromfile(os.path.join(out, "y.i32"), dtype="<i4")
te = np.fromfile(os.path.join(out, "test.i32"), dtype="<i4")
is_te = np.zeros(len(y), dtype=bool)
is_te[te] = True
model = lambda: HistGradientBoostingClassifier(max_iter=100, early_stopping=False, random_state=0)
times = []
cpu = []
for _ in range(2):
    t = time.perf_counter()
    c = time.process_time()
    model().fit(X, y)
    times.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
t = time.perf_counter()
m = model().fit(X[~is_te], y[~is_te])
fit_train = time.perf_counter() - t
accuracy = float((m.predict(X[is_te]) == y[is_te]).mean())

xgb = None
try:
    import xgboost

    xmodel = lambda: xgboost.XGBClassifier(n_estimators=100, tree_method="hist", n_jobs=1, random_state=0)
    xtimes, xcpu = [], []
    for _ in range(2):
        t = time.perf_counter()
        c = time.process_time()
        xmodel().fit(X, y)
        xtimes.append(time.perf_counter() - t)
        xcpu.append(time.process_time() - c)
    xm = xmodel().fit(X[~is_te], y[~is_te])
    xgb = {"version": xgboost.__version__, "fit_full_s": min(xtimes), "fit_full_runs_s": xtimes, "fit_full_cpu_s": min(xcpu), "accuracy": float((xm.predict(X[is_te]) == y[is_te]).mean()), "load_1m": os.getloadavg()[0]}
except ImportError:
    pass
print(json.dumps({"version": sklearn.__version__, "fit_full_s": min(times), "fit_full_runs_s": times, "fit_full_cpu_s": min(cpu), "fit_train_s": fit_train, "accuracy": accuracy, "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "xgboost": xgb}))
