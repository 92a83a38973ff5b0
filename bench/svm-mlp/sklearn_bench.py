"""Makes the benchmark data and times scikit-learn on it (see README.md).

Writes <dir>/X_train.f64, y_train.i32, X_test.f64, y_test.i32 (little-endian, row-major)
and <dir>/sklearn.json with fit seconds and test accuracy. Run with Debian's Python:
    /usr/bin/python3 bench/svm-mlp/sklearn_bench.py /tmp/xigua-bench-svm-mlp
ONLY=svm skips the MLPs (bench.ts reads the same variable). Single-threaded when run with
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 (run.sh does), and the load average is recorded.
"""
import json
import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

warnings.filterwarnings("ignore")
out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/xigua-bench-svm-mlp"
repeats = int(os.environ.get("REPEATS", "2"))
os.makedirs(out, exist_ok=True)

X, y = make_classification(n_samples=12_000, n_features=20, n_informative=10, n_redundant=4, flip_y=0.03, class_sep=1.0, random_state=0)
Xtr, Xte, ytr, yte = X[:10_000], X[10_000:], y[:10_000], y[10_000:]
scaler = StandardScaler().fit(Xtr)
Xtr, Xte = scaler.transform(Xtr), scaler.transform(Xte)
Xtr.astype("<f8").tofile(os.path.join(out, "X_train.f64"))
Xte.astype("<f8").tofile(os.path.join(out, "X_test.f64"))
ytr.astype("<i4").tofile(os.path.join(out, "y_train.i32"))
yte.astype("<i4").tofile(os.path.join(out, "y_test.i32"))


def timed(make):
    """Best wall and best CPU seconds (all threads) over the repeats, and test accuracy."""
    wall, cpu, model = float("inf"), float("inf"), None
    for _ in range(repeats):
        m = make()
        t0, c0 = time.perf_counter(), time.process_time()
        m.fit(Xtr, ytr)
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
        model = m
    return wall, cpu, float(model.score(Xte, yte))


results = {"sklearn": sklearn.__version__, "numpy": np.__version__, "repeats": repeats}
results["svm_fit_s"], results["svm_cpu_s"], results["svm_accuracy"] = timed(lambda: SVC(kernel="rbf", C=1.0, gamma="scale"))
results["svm_iterations"] = int(SVC(kernel="rbf", C=1.0, gamma="scale").fit(Xtr, ytr).n_iter_[0])
results["load_1m_after_svm"] = os.getloadavg()[0]
for act in [] if os.environ.get("ONLY") == "svm" else ["relu", "logistic"]:
    t, c, acc = timed(lambda: MLPClassifier(hidden_layer_sizes=(64,), activation=act, solver="adam", learning_rate_init=0.001, batch_size=200, max_iter=200, tol=0.0, n_iter_no_change=200, random_state=0))
    results[f"mlp_{act}_fit_s"], results[f"mlp_{act}_cpu_s"], results[f"mlp_{act}_accuracy"] = t, c, acc
with open(os.path.join(out, "sklearn.json"), "w") as f:
    json.dump(results, f, indent=1)
print(json.dumps(results))
