#!/usr/bin/env bash
# Sweeps the run-time tuning constants of the GPU SpGEMM one at a time around
# their defaults (kernels/plan/spgemm_gpu_policy.hpp), each setting over the same
# inputs, and prints one line per setting: the geometric mean of the speed-up
# over cuSPARSE and the lowest speed-up.
#
#   scripts/spgemm-sweep.sh GRAPHRUN DATASETS [REPS]
#
# GRAPHRUN is a CUDA build's binary, DATASETS the shared graph collection
# (every file under it, then R-MAT 16 and 17). The full tables go to
# $OUT/sweep (or ./sweep-out).
set -euo pipefail
bin=$1
data=$2
reps=${3:-3}
out=${OUT:-$PWD/sweep-out}/sweep
mkdir -p "$out"
settings=(
  ""
  "dense-words=1" "dense-words=4" "dense-words=8"
  "dense-shared-products=4" "dense-shared-products=8" "dense-shared-products=32"
  "dense-shared-products=1000000000"
  "warp-max-ip=256" "warp-max-ip=512" "warp-max-ip=2048" "warp-max-ip=4096"
)
echo "| setting | geometric mean | lowest | inputs |"
echo "| --- | --- | --- | --- |"
for s in "${settings[@]}"; do
  name=${s:-defaults}
  name=${name//=/-}
  tune=()
  [ -n "$s" ] && tune=(--tune "$s")
  "$bin" bench spgemm --suite "$data" --rmat-scales 16 17 --device cuda --reps "$reps" \
    "${tune[@]}" >"$out/$name.md" 2>/dev/null
  # The speed-up is the 8th column of the table's rows.
  awk -F'|' -v name="$name" '
    /^\| / && $2 !~ /graph|---/ && $9 ~ /x/ {
      v = $9; gsub(/[ x]/, "", v); v += 0; n++; s += log(v); if (min == "" || v < min) min = v }
    END { printf "| %s | %.2fx | %.2fx | %d |\n", name, exp(s / n), min, n }' "$out/$name.md"
done
