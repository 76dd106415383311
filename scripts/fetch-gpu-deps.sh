#!/usr/bin/env bash
# Downloads the Debian packages that the build needs but a bare CUDA machine
# may lack (GoogleTest, CLI11, zlib headers, Boost headers, GraphBLAS for the
# CPU anchor of the benchmarks) into .deps/, so
# that scripts/gpu-check.sh can unpack them there without a network.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
apt-get download libgtest-dev libgmock-dev libcli11-dev zlib1g-dev libboost1.74-dev \
  libgraphblas-dev libgraphblas7 2>/dev/null
ls -la
