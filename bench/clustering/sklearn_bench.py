#!/usr/bin/python3
"""scikit-learn side of bench/clustering (run by bench.ts with OMP_NUM_THREADS=1 and
OPENBLAS_NUM_THREADS=1; Debian's Python with scikit-learn 1.2).

`sklearn_bench.py DIR data` writes make_blobs(n_samples=100000, n_features=20, centers=8,
cluster_std=4, random_state=0) as raw little-endian float64 (row-major) into DIR, and eight
initial rows from kmeans_plusplus(random_state=0) as int32.
`sklearn_bench.py DIR CASE` times one case on those bytes and prints one JSON line
(best wall time, the process CPU time of that run, iterations, objective):
  kmeans_same   KMeans(8, init=those rows, n_init=1, algorithm="lloyd")     best of 5
  kmeans_own    KMeans(8, n_init=1, random_state=0)                          best of 5
  gmm_same      GaussianMixture(8, "full", weights 1/8, means at the rows, covariances 4·I)
  gmm_own       GaussianMixture(8, "full", random_state=0)
"""
import json
import os
import resource
import sys
import time

import numpy as np
from sklearn.cluster import DBSCAN, AgglomerativeClustering, KMeans, kmeans_plusplus
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture

out, case = sys.argv[1], sys.argv[2]
K, VARIANCE = 8, 4.0

if case == "data":
    X, _ = make_blobs(n_samples=100_000, n_features=20, centers=K, cluster_std=4.0, random_state=0)
    X = np.ascontiguousarray(X, dtype="<f8")
    _, rows = kmeans_plusplus(X, K, random_state=0)
    X.tofile(os.path.join(out, "X.f64"))
    rows.astype("<i4").tofile(os.path.join(out, "rows.i32"))
    # DBSCAN / agnes data (the sizes): 100k × 2 and 20k × 20 blobs, cluster_std 1.
    X2, _ = make_blobs(n_samples=100_000, n_features=2, centers=K, cluster_std=1.0, random_state=0)
    np.ascontiguousarray(X2, dtype="<f8").tofile(os.path.join(out, "X2.f64"))
    X20, _ = make_blobs(n_samples=20_000, n_features=20, centers=K, cluster_std=1.0, random_state=0)
    np.ascontiguousarray(X20, dtype="<f8").tofile(os.path.join(out, "X20.f64"))
    sys.exit(0)


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


SMALL = {
    # DBSCAN's default algorithm="auto" (a kd-tree at these dimensions), as xigua's index.
    "dbscan_2": ("X2.f64", 2, 3, lambda X: DBSCAN(eps=0.1, min_samples=10).fit(X)),
    "dbscan_20": ("X20.f64", 20, 3, lambda X: DBSCAN(eps=4.5, min_samples=10).fit(X)),
    "agnes_ward": ("X20.f64", 20, 1, lambda X: AgglomerativeClustering(n_clusters=8, linkage="ward").fit(X)),
}
if case in SMALL:
    name, dim, reps, fit = SMALL[case]
    X = np.fromfile(os.path.join(out, name), dtype="<f8").reshape(-1, dim)
    before = rss_bytes()
    best = None
    for _ in range(reps):
        w, c = time.perf_counter(), time.process_time()
        model = fit(X)
        run = (time.perf_counter() - w, time.process_time() - c)
        if best is None or run[0] < best[0]:
            best = run
    labels = model.labels_
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"s": best[0], "cpu_s": best[1], "n_iter": 0, "clusters": int(labels.max() + 1), "noise": int((labels < 0).sum()), "peak_extra": peak - before}))
    sys.exit(0)

X = np.fromfile(os.path.join(out, "X.f64"), dtype="<f8").reshape(-1, 20)
rows = np.fromfile(os.path.join(out, "rows.i32"), dtype="<i4")
d = X.shape[1]
FITS = {
    "kmeans_same": (5, lambda: KMeans(K, init=X[rows], n_init=1, algorithm="lloyd").fit(X)),
    "kmeans_own": (5, lambda: KMeans(K, n_init=1, random_state=0, algorithm="lloyd").fit(X)),
    "gmm_same": (1, lambda: GaussianMixture(K, covariance_type="full", weights_init=np.full(K, 1 / K), means_init=X[rows], precisions_init=np.array([np.eye(d) / VARIANCE] * K)).fit(X)),
    "gmm_own": (1, lambda: GaussianMixture(K, covariance_type="full", random_state=0).fit(X)),
}
reps, fit = FITS[case]
best = None
for _ in range(reps):
    w, c = time.perf_counter(), time.process_time()
    model = fit()
    run = (time.perf_counter() - w, time.process_time() - c)
    if best is None or run[0] < best[0]:
        best = run
objective = {"inertia": float(model.inertia_)} if case.startswith("kmeans") else {"score": float(model.score(X))}
print(json.dumps({"s": best[0], "cpu_s": best[1], "n_iter": int(model.n_iter_), **objective}))
