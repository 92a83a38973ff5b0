#!/usr/bin/python3
"""scikit-learn side of bench/ensembles rf-/ada- (run by rf-ada-bench.ts; Debian's Python, scikit-learn 1.2).

`rf-ada-sklearn.py DIR` writes make_classification(n_samples=45000, n_features=20,
n_informative=10, random_state=0) as raw little-endian float64 (row-major X) and int32 (y)
into DIR, the first 20,000 rows for training and the other 25,000 for prediction, then times
on the same bytes, single-threaded (n_jobs=1):
  RandomForestClassifier(n_estimators=100, random_state=0): fit, accuracy, batch predict of the
  25,000 rows (best of 3), single-row predict (median of 200 calls), pickle size;
  AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=100, algorithm="SAMME"): fit, accuracy.
The issue's anchor is 100,000 rows (54 s for the forest here); 20,000 keeps a run short.
The environment may set TRAIN (training rows; 25,000 more are generated for prediction) and
RF_ONLY=1 (skip AdaBoost): rf-parallel-bench.ts runs the forest alone at 100,000; ADA_ONLY=1
(skip the forest): AdaBoost alone at the issue's 75,000 (TRAIN=75000).
Both fits also report their CPU time (time.process_time). Prints one JSON line.
"""
import json
import os
import pickle
import sys
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier, RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

out = sys.argv[1]
# TRAIN and RF_ONLY from the environment: rf-parallel-bench.ts runs the forest alone at 100,000 rows.
TRAIN = int(os.environ.get("TRAIN", "20000"))
RF_ONLY = os.environ.get("RF_ONLY") == "1"
ADA_ONLY = os.environ.get("ADA_ONLY") == "1"
X, y = make_classification(n_samples=TRAIN + 25000, n_features=20, n_informative=10, random_state=0)
X.astype("<f8").tofile(os.path.join(out, "X.f64"))
y.astype("<i4").tofile(os.path.join(out, "y.i32"))
Xtr, ytr, Xte, yte = X[:TRAIN], y[:TRAIN], np.ascontiguousarray(X[TRAIN:]), y[TRAIN:]

res = {"train_rows": TRAIN, "predict_rows": len(yte), "features": X.shape[1]}


def forest():
    t = time.perf_counter()
    c = time.process_time()
    rf = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1).fit(Xtr, ytr)
    res["rf_fit_s"] = time.perf_counter() - t
    res["rf_fit_cpu_s"] = time.process_time() - c
    res["rf_accuracy"] = float((rf.predict(Xte) == yte).mean())
    batch = []
    for _ in range(3):
        t = time.perf_counter()
        rf.predict(Xte)
        batch.append(time.perf_counter() - t)
    res["rf_predict_batch_s"] = min(batch)
    single = []
    for i in range(200):
        row = Xte[i : i + 1]
        t = time.perf_counter()
        rf.predict(row)
        single.append(time.perf_counter() - t)
    res["rf_predict_single_us"] = float(np.median(single)) * 1e6
    res["rf_pickle_bytes"] = len(pickle.dumps(rf))


if not ADA_ONLY:
    forest()
if RF_ONLY:
    print(json.dumps(res))
    sys.exit(0)
t = time.perf_counter()
c = time.process_time()
ada = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=100, algorithm="SAMME", random_state=0).fit(Xtr, ytr)
res["ada_fit_s"] = time.perf_counter() - t
res["ada_fit_cpu_s"] = time.process_time() - c
res["ada_accuracy"] = float((ada.predict(Xte) == yte).mean())
res["ada_rounds"] = len(ada.estimators_)
print(json.dumps(res))
