#!/usr/bin/env bash
# Installs what graphrun needs to build and test on Debian 12 (bookworm),
# skipping what is already there. Run as root or with sudo available.
#   build:   cmake g++ zlib CLI11 (OpenMP comes with g++)
#   tests:   GoogleTest, Boost.Graph (oracle), python3 + NetworkX/SciPy/igraph (oracles)
#   bench:   SuiteSparse:GraphBLAS (the CPU anchor)
#   experiment: mcl (van Dongen's program, the reference of the MCL comparison),
#            libgd (the PNG bar charts)
#   style:   clang-format
#   fuzzing: clang with its libFuzzer and sanitizer runtimes, libomp (scripts/fuzz.sh)
# The CUDA toolkit is not installed here: GRAPHRUN_CUDA=AUTO builds the CUDA
# backend when nvcc is found (PATH or /usr/local/cuda).
set -euo pipefail
pkgs=(cmake g++ make pkg-config zlib1g-dev libcli11-dev libgtest-dev libboost-graph-dev
      libgraphblas-dev python3 python3-networkx python3-scipy python3-igraph clang-format gzip mcl libgd-dev
      clang libomp-dev libclang-rt-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is already installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
