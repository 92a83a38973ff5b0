#!/usr/bin/python3
"""scikit-learn side of bench/trees/movies.ts (Debian's Python with scikit-learn 1.2, pandas).

`sklearn_movies.py CSV TARGET KIND REPS FEATURE...` reads test/fixtures/movies.csv, drops the
rows whose target is missing (as xigua does), and times 10-fold cross-validation of the
pipeline a scikit-learn user writes for a table with categorical and missing cells:
ColumnTransformer(numeric: SimpleImputer(mean); categorical: SimpleImputer(most_frequent) +
OneHotEncoder(handle_unknown="ignore")) + DecisionTreeClassifier / DecisionTreeRegressor.
KIND is `regression`, `gini` or `entropy` (the classifier's criterion). Folds: StratifiedKFold
for classification, KFold for regression, shuffled (random_state=1). Prints one JSON line:
the best of REPS wall times (and that run's CPU time), the mean fold score (accuracy or R²) and the load average.
"""
import json
import os
import sys
import time

import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

csv, target, kind, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
features = sys.argv[5:]
df = pd.read_csv(csv)
df = df[df[target].notna()]
X = df[features]
y = df[target]
numeric = [c for c in features if pd.api.types.is_numeric_dtype(X[c])]
categorical = [c for c in features if c not in numeric]
prep = ColumnTransformer(
    [
        ("num", SimpleImputer(strategy="mean"), numeric),
        ("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")), ("onehot", OneHotEncoder(handle_unknown="ignore"))]), categorical),
    ]
)
if kind == "regression":
    model = DecisionTreeRegressor(random_state=0)
    cv = KFold(10, shuffle=True, random_state=1)
    scoring = "r2"
else:
    model = DecisionTreeClassifier(criterion=kind, random_state=0)
    cv = StratifiedKFold(10, shuffle=True, random_state=1)
    scoring = "accuracy"
pipe = Pipeline([("prep", prep), ("tree", model)])
times = []
for _ in range(reps):
    t = time.perf_counter()
    c = time.process_time()
    r = cross_validate(pipe, X, y, cv=cv, scoring=scoring, n_jobs=1)
    times.append((time.perf_counter() - t, time.process_time() - c))
best = min(times)
print(json.dumps({"cv10_s": best[0], "cv10_cpu_s": best[1], "score": float(r["test_score"].mean()), "rows": len(y), "load": os.getloadavg()[0]}))
