#!/usr/bin/python3
"""scikit-learn side of bench/clustering (run by bench.ts with OMP_NUM_THREADS=1 and
OPENBLAS_NUM_THREADS=1; Debian's Python with scikit-learn 1.2).

`sklearn_bench.py DIR` writes make_blobs(n_samples=100000, n_features=20, centers=8,
cluster_std=4, random_state=0) as raw little-endian float64 (row-major) into DIR, eight
initial rows from kmeans_plusplus(random_state=0) as int32, times on the same bytes
  KMeans(8, init=those rows, n_init=1, algorithm="lloyd")      same start as xigua
  KMeans(8, n_init=1, random_state=0)                          its own k-means++
  GaussianMixture(8, "full", weights 1/8, means at those rows, covariances 4·I)   same start
  GaussianMixture(8, "full", random_state=0)                   its own k-means start
and prints one JSON line of best times, iterations and objectives.
"""
import json
import os
import sys
import time

import numpy as np
from sklearn.cluster import KMeans, kmeans_plusplus
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture

out = sys.argv[1]
VARIANCE = 4.0


def best(f, reps):
    times = []
    r = None
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t)
    return min(times), r


X, _ = make_blobs(n_samples=100_000, n_features=20, centers=8, cluster_std=4.0, random_state=0)
X = np.ascontiguousarray(X, dtype="<f8")
_, rows = kmeans_plusplus(X, 8, random_state=0)
rows = rows.astype("<i4")
X.tofile(os.path.join(out, "X.f64"))
rows.tofile(os.path.join(out, "rows.i32"))

k, d = 8, X.shape[1]
res = {}
t, km = best(lambda: KMeans(8, init=X[rows], n_init=1, algorithm="lloyd").fit(X), 5)
res["kmeans_same_init"] = {"s": t, "n_iter": int(km.n_iter_), "inertia": float(km.inertia_)}
t, km = best(lambda: KMeans(8, n_init=1, random_state=0, algorithm="lloyd").fit(X), 5)
res["kmeans_own_init"] = {"s": t, "n_iter": int(km.n_iter_), "inertia": float(km.inertia_)}
prec = np.array([np.eye(d) / VARIANCE] * k)
t, gm = best(lambda: GaussianMixture(k, covariance_type="full", weights_init=np.full(k, 1 / k), means_init=X[rows], precisions_init=prec).fit(X), 1)
res["gmm_same_init"] = {"s": t, "n_iter": int(gm.n_iter_), "score": float(gm.score(X))}
t, gm = best(lambda: GaussianMixture(k, covariance_type="full", random_state=0).fit(X), 1)
res["gmm_own_init"] = {"s": t, "n_iter": int(gm.n_iter_), "score": float(gm.score(X))}
print(json.dumps(res))
