#!/usr/bin/python3
"""scikit-learn side of bench/linear/movies.ts: 10-fold cross_validate of SimpleImputer +
OneHotEncoder(handle_unknown="ignore") + Ridge / LogisticRegression on the movies table,
timed from the parsed table to the last fold (reading the CSV is not timed, as xigua's
dataset is already stored). Prints one JSON line."""
import json
import sys
import time

import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

path, algorithm, target, features = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
table = pd.read_csv(path)
features = [f for f in features if f != target]
table = table[table[target].notna()]
X, y = table[features], table[target]
numeric = [f for f in features if pd.api.types.is_numeric_dtype(X[f])]
categorical = [f for f in features if f not in numeric]

start = time.perf_counter()
cpu_start = time.process_time()
prep = ColumnTransformer(
    [
        ("num", SimpleImputer(), numeric),
        ("cat", Pipeline([("impute", SimpleImputer(strategy="most_frequent")), ("onehot", OneHotEncoder(handle_unknown="ignore"))]), categorical),
    ]
)
if algorithm == "ridge":
    model, cv, scoring = Ridge(), KFold(10, shuffle=True, random_state=1), "r2"
else:
    model, cv, scoring = LogisticRegression(max_iter=100), StratifiedKFold(10, shuffle=True, random_state=1), "accuracy"
scores = cross_validate(Pipeline([("prep", prep), ("model", model)]), X, y, cv=cv, scoring=scoring)
seconds = time.perf_counter() - start
cpu = time.process_time() - cpu_start
name = "R²" if scoring == "r2" else "accuracy"
print(json.dumps({"seconds": seconds, "cpu": cpu, "metric": f"{name} {scores['test_score'].mean():.3f}"}))
