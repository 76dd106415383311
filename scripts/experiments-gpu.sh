#!/usr/bin/env bash
# The GPU experiments of docs/experiments.md, for scripts/gpu-check.sh --bench:
#
#   scripts/gpu-check.sh --bench 'scripts/experiments-gpu.sh build-gpu/graphrun DATASETS'
#
# writes contraction.md/.csv, mcl.md/.csv and mcl-generated.md/.csv under $OUT
# (draw the charts with `graphrun experiment plot X.csv --png X.png` where
# the build has libgd). MCL on the generated graphs is capped at 10
# iterations: the comparison is per iteration. (R-MAT 20, the size of
# web-Google, expands to 5·10⁹ entries in its first MCL iteration and is run
# in column blocks; it has no communities, so an LFR graph of web-Google's
# size stands beside it.) EXPERIMENT_LIMIT (seconds,
# default none) caps each of the three runs; the rows done by then are kept.
set -uo pipefail
graphrun=${1:?usage: $0 GRAPHRUN DATASETS}
datasets=${2:?usage: $0 GRAPHRUN DATASETS}
out=${OUT:-.}
limit=()
[ -n "${EXPERIMENT_LIMIT:-}" ] && limit=(timeout "$EXPERIMENT_LIMIT")
"${limit[@]}" "$graphrun" experiment contraction --device cuda --suite "$datasets" --reps 3 \
  --csv "$out/contraction.csv" | tee "$out/contraction.md"
"${limit[@]}" "$graphrun" experiment mcl --device cuda --suite "$datasets" --no-generated \
  --csv "$out/mcl.csv" | tee "$out/mcl.md"
"${limit[@]}" "$graphrun" experiment mcl --device cuda gen:grid:1183x1183 gen:rmat:18:5 \
  gen:rmat:20:5 gen:lfr:875713:0.3:12:100 --max-iter 10 --csv "$out/mcl-generated.csv" | tee "$out/mcl-generated.md"
