#!/usr/bin/env bash
# Runs the svm/mlp benchmark: scikit-learn first (it also writes the data), then xigua
# and libsvm-js. libsvm-js is not a dependency: `npm install --no-save libsvm-js` first
# to include it (the table says so when it is absent).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-/tmp/xigua-bench-svm-mlp}
# Single-threaded peers (the issue's comparisons are single-threaded); ONLY=svm skips the MLPs.
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/svm-mlp/sklearn_bench.py "$DATA" >/dev/null
node --import tsx bench/svm-mlp/bench.ts "$DATA"
