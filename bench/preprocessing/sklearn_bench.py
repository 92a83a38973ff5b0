#!/usr/bin/python3
"""scikit-learn's side of bench/preprocessing: ColumnTransformer(StandardScaler on the numeric
columns, OneHotEncoder on the categorical ones) + PCA(10), fitted on the bytes bench.ts wrote.

    /usr/bin/python3 bench/preprocessing/sklearn_bench.py DIR REPEATS

Prints one JSON object: best wall and CPU seconds for fit, and for fit + transform, with the
default PCA solver (randomized here: the data is larger than 500 × 500) and with svd_solver="full".
"""
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.compose import ColumnTransformer
from sklearn.decomposition import PCA
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

directory, repeats = sys.argv[1], int(sys.argv[2])
meta = json.load(open(os.path.join(directory, "meta.json")))
n, numeric, categorical = meta["rows"], meta["numeric"], meta["categorical"]
X_num = np.fromfile(os.path.join(directory, "numeric.f64"), dtype=np.float64).reshape(numeric, n).T
X_cat = np.fromfile(os.path.join(directory, "codes.i32"), dtype=np.int32).reshape(categorical, n).T
X = np.hstack([X_num, X_cat.astype(np.float64)])


def pipeline(solver):
    pre = ColumnTransformer(
        [
            ("num", StandardScaler(), list(range(numeric))),
            ("cat", OneHotEncoder(sparse_output=False, handle_unknown="ignore"), list(range(numeric, numeric + categorical))),
        ]
    )
    return Pipeline([("pre", pre), ("pca", PCA(n_components=10, svd_solver=solver, random_state=0))])


def best(fn):
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return wall, cpu, out


result = {"sklearn": sklearn.__version__, "numpy": np.__version__}
for solver in ("auto", "full"):
    wall, cpu, model = best(lambda: pipeline(solver).fit(X))
    result[f"fit_{solver}"] = {"seconds": wall, "cpu": cpu, "explained_variance_ratio": model[-1].explained_variance_ratio_.tolist()}
    wall, cpu, _ = best(lambda: pipeline(solver).fit(X).transform(X))
    result[f"fit_transform_{solver}"] = {"seconds": wall, "cpu": cpu}
print(json.dumps(result))
