#!/usr/bin/python3
"""scikit-learn side of bench/bayes-knn's Bayes part (run by bayes-bench.ts; Debian's Python, scikit-learn 1.2).

`bayes_sklearn_bench.py DIR` writes make_classification(n_samples=100000, n_features=20,
n_informative=10, random_state=0) as raw little-endian float64 (row-major X) and int32 (y),
and a categorical version of it (every column cut into 5 equal-frequency bins, codes 0-4,
int32 row-major) into DIR, then times on those bytes: GaussianNB fit and predict_proba on all
100,000 rows, and CategoricalNB fit and predict_proba on the categorical table (the nearest
scikit-learn has to aode/tan: a naive Bayes on the same codes). One JSON line.
`bayes_sklearn_bench.py DIR again` times the same on the bytes already written (bayes-bench.ts
calls it after its own run, so both sides' best times come from comparable moments).
Threads are pinned to one (OMP/OPENBLAS/MKL_NUM_THREADS=1 in the environment bayes-bench.ts sets).
"""
import json
import os
import sys
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.naive_bayes import CategoricalNB, GaussianNB

out = sys.argv[1]
N, D = 100_000, 20


def best(f, reps):
    times = []
    r = None
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t)
    return min(times), r


if len(sys.argv) > 2 and sys.argv[2] == "again":
    X = np.fromfile(os.path.join(out, "X.f64"), dtype="<f8").reshape(N, D)
    y = np.fromfile(os.path.join(out, "y.i32"), dtype="<i4")
    C = np.fromfile(os.path.join(out, "C.i32"), dtype="<i4").reshape(N, D)
else:
    X, y = make_classification(n_samples=N, n_features=D, n_informative=10, random_state=0)
    edges = [np.quantile(X[:, j], [0.2, 0.4, 0.6, 0.8]) for j in range(D)]
    C = np.stack([np.searchsorted(edges[j], X[:, j], side="right") for j in range(D)], axis=1).astype("<i4")
    X.astype("<f8").tofile(os.path.join(out, "X.f64"))
    y.astype("<i4").tofile(os.path.join(out, "y.i32"))
    C.tofile(os.path.join(out, "C.i32"))

gnb_fit, gnb = best(lambda: GaussianNB().fit(X, y), 10)
gnb_predict, proba = best(lambda: gnb.predict_proba(X), 10)
gnb_both, _ = best(lambda: GaussianNB().fit(X, y).predict_proba(X), 10)
cnb_fit, cnb = best(lambda: CategoricalNB().fit(C, y), 5)
cnb_predict, _ = best(lambda: cnb.predict_proba(C), 5)
print(json.dumps({
    "gaussian_nb": {"fit_s": gnb_fit, "predict_proba_s": gnb_predict, "fit_predict_s": gnb_both, "accuracy": float((proba.argmax(1) == y).mean())},
    "categorical_nb": {"fit_s": cnb_fit, "predict_proba_s": cnb_predict},
}))
