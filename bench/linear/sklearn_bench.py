#!/usr/bin/python3
"""scikit-learn side of bench/linear: reads the raw float64 files bench.ts wrote and
prints one JSON line of median fit times. Run by bench.ts with Debian's /usr/bin/python3."""
import json
import statistics
import sys
import time

import numpy as np
import sklearn
from sklearn.linear_model import LinearRegression, LogisticRegression

folder, n, p, n_test, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])


def load(name, shape):
    return np.fromfile(f"{folder}/{name}", dtype="<f8").reshape(shape)


X = np.ascontiguousarray(load("x.f64", (p, n)).T)
X_test = np.ascontiguousarray(load("x_test.f64", (p, n_test)).T)
y_reg = load("y_reg.f64", (n,))
y_cls = load("y_cls.f64", (n,)).astype(int)
y_cls_test = load("y_cls_test.f64", (n_test,)).astype(int)


def timed(fit):
    fit()  # warm-up
    times = []
    cpu = []
    for _ in range(repeats):
        t = time.perf_counter()
        c = time.process_time()
        model = fit()
        cpu.append((time.process_time() - c) * 1000)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), statistics.median(cpu), model


lr_ms, lr_cpu, lr = timed(lambda: LinearRegression().fit(X, y_reg))
log_ms, log_cpu, log = timed(lambda: LogisticRegression(solver="lbfgs").fit(X, y_cls))
print(json.dumps({
    "sklearn": sklearn.__version__,
    "numpy": np.__version__,
    "linear_regression_ms": lr_ms,
    "linear_regression_cpu_ms": lr_cpu,
    "linear_regression_coef": lr.coef_.tolist(),
    "logistic_regression_ms": log_ms,
    "logistic_regression_cpu_ms": log_cpu,
    "logistic_regression_iterations": int(log.n_iter_[0]),
    "logistic_regression_test_accuracy": float(log.score(X_test, y_cls_test)),
}))
