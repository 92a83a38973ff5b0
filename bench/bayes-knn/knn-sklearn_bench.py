"""Makes the kNN benchmark data and times scikit-learn on it (see README.md, section kNN).

make_classification, 100,000 × 20 (10 informative, 4 redundant, 3 % flipped labels,
random_state=0), standardised with the first 75,000 rows, which are the training rows;
the last 25,000 are predicted. Writes <dir>/knn_X_train.f64, knn_y_train.i32,
knn_X_test.f64 (little-endian, row-major) and <dir>/knn_sklearn.json. Single-threaded:
run with OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 (run.sh does).
    /usr/bin/python3 bench/bayes-knn/knn-sklearn_bench.py /tmp/xigua-bench-knn
"""
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import StandardScaler

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/xigua-bench-knn"
repeats = int(os.environ.get("REPEATS", "1"))
os.makedirs(out, exist_ok=True)

X, y = make_classification(n_samples=100_000, n_features=20, n_informative=10, n_redundant=4, flip_y=0.03, class_sep=1.0, random_state=0)
Xtr, Xte, ytr = X[:75_000], X[75_000:], y[:75_000]
scaler = StandardScaler().fit(Xtr)
Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
Xtr.astype("<f8").tofile(os.path.join(out, "knn_X_train.f64"))
Xte.astype("<f8").tofile(os.path.join(out, "knn_X_test.f64"))
ytr.astype("<i4").tofile(os.path.join(out, "knn_y_train.i32"))

results = {"sklearn": sklearn.__version__, "numpy": np.__version__, "repeats": repeats, "load_before": os.getloadavg()[0]}
model = KNeighborsClassifier(n_neighbors=5).fit(Xtr, ytr)  # algorithm="auto": brute force at 20 dimensions
results["algorithm"] = model._fit_method
wall, cpu = float("inf"), float("inf")
for _ in range(repeats):
    t0, c0 = time.perf_counter(), time.process_time()
    pred = model.predict(Xte)
    wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
results["batch_s"], results["batch_cpu_s"] = wall, cpu
np.asarray(pred, dtype="<i4").tofile(os.path.join(out, "knn_sklearn_pred.i32"))
# Single-row latency: 200 rows one at a time, median.
times = []
for i in range(200):
    row = Xte[i : i + 1]
    t0 = time.perf_counter()
    model.predict(row)
    times.append(time.perf_counter() - t0)
results["single_row_ms"] = float(np.median(times) * 1e3)
results["load_after"] = os.getloadavg()[0]
with open(os.path.join(out, "knn_sklearn.json"), "w") as f:
    json.dump(results, f)
print(json.dumps(results))
