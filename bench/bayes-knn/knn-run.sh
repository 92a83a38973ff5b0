#!/usr/bin/env bash
# The kNN benchmark (README.md, section kNN): scikit-learn first, single-threaded (it also
# writes the data), then xigua on the same bytes: in process, then through the service
# (knn-service.ts: the real server, one and two compute threads).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${1:-/tmp/xigua-bench-knn}
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 /usr/bin/python3 bench/bayes-knn/knn-sklearn_bench.py "$DATA"
node --import tsx bench/bayes-knn/knn-bench.ts "$DATA"
node --import tsx bench/bayes-knn/knn-service.ts "$DATA"
