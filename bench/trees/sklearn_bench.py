#!/usr/bin/python3
"""scikit-learn side of bench/trees (run by bench.ts; Debian's Python with scikit-learn 1.2).

`sklearn_bench.py DIR` writes the data set the issue names, make_classification(
n_samples=100000, n_features=20, n_informative=10, random_state=0), as raw little-endian
float64 (row-major X) and int32 (y) into DIR, with the 75/25 split train_test_split(
test_size=0.25, random_state=0) as an int32 list of test rows, times DecisionTreeClassifier
(single-threaded by nature) on the same bytes, pickles the fitted model into DIR and prints
one JSON line of timings.
`sklearn_bench.py DIR predict` times the pickled model's predictions again: bench.ts calls it
after its own, so that both sides' best times come from comparable moments of a shared machine.
"""
import json
import os
import pickle
import sys
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

out = sys.argv[1]


def best(f, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t)
    return min(times), r


def predict_timings(model, X, te):
    Xte = np.ascontiguousarray(X[te])
    predict_batch, pred = best(lambda: model.predict(Xte), 50)
    rows = [Xte[i : i + 1] for i in range(1000)]
    single = []
    for _ in range(3):
        t = time.perf_counter()
        for i in range(5000):
            model.predict(rows[i % 1000])
        single.append((time.perf_counter() - t) / 5000)
    return predict_batch, pred, min(single) * 1e6


if len(sys.argv) > 2 and sys.argv[2] == "predict":
    with open(os.path.join(out, "model.pkl"), "rb") as fh:
        model = pickle.load(fh)
    X = np.fromfile(os.path.join(out, "X.f64"), dtype="<f8").reshape(-1, 20)
    te = np.fromfile(os.path.join(out, "test.i32"), dtype="<i4")
    predict_batch, _, single = predict_timings(model, X, te)
    print(json.dumps({"predict_batch_s": predict_batch, "single_row_us": single}))
    sys.exit(0)

X, y = make_classification(n_samples=100_000, n_features=20, n_informative=10, random_state=0)
idx = np.arange(len(y))
tr, te = train_test_split(idx, test_size=0.25, random_state=0)
tr, te = np.sort(tr), np.sort(te)
X.astype("<f8").tofile(os.path.join(out, "X.f64"))
y.astype("<i4").tofile(os.path.join(out, "y.i32"))
te.astype("<i4").tofile(os.path.join(out, "test.i32"))

fit_full, full = best(lambda: DecisionTreeClassifier(random_state=0).fit(X, y), 3)
fit_train, model = best(lambda: DecisionTreeClassifier(random_state=0).fit(X[tr], y[tr]), 1)
predict_batch, pred, single_us = predict_timings(model, X, te)
accuracy = float((pred == y[te]).mean())
with open(os.path.join(out, "model.pkl"), "wb") as fh:
    pickle.dump(model, fh)
print(json.dumps({
    "fit_full_s": fit_full,
    "nodes_full": int(full.tree_.node_count),
    "depth_full": int(full.get_depth()),
    "fit_train_s": fit_train,
    "accuracy": accuracy,
    "predict_batch_s": predict_batch,
    "single_row_us": single_us,
}))
