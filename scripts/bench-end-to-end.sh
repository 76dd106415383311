#!/usr/bin/env bash
# `graphrun pagerank FILE` end to end, --device cpu (every host core) beside
# --device cuda, from a text edge list and from its .grb cache, at the
# default tolerance and at --tol 1e-10; beside `wc -l` on the same file, so
# that the parse rate reads against what merely reading the file costs.
# Wall times are medians of --reps runs of the whole command (the file stays
# in the page cache after the first read, for both devices alike); the load,
# rank and setup figures come from the summary line graphrun prints.
#
#   scripts/bench-end-to-end.sh [--scale 23] [--reps 3] [--dir DIR] [--build DIR] [--text-only]
#
# --text-only leaves out the .grb cache (its conversion and its rows): about
# half the time, for a device call that runs other work too.
#
# Writes a Markdown table on stdout. The graph is an R-MAT of 2^SCALE
# vertices and 16 * 2^SCALE directed edges (graphrun-generate, seed 1).
set -euo pipefail
scale=23
reps=3
dir=${TMPDIR:-/tmp}/graphrun-end-to-end
build=build-gpu
inputs=text
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --text-only) inputs=text-only; shift ;;
    *) echo "usage: $0 [--scale N] [--reps N] [--dir DIR] [--build DIR] [--text-only]" >&2; exit 2 ;;
  esac
done
graphrun=$build/graphrun
[[ "$scale" =~ ^[0-9]+$ ]] && [ "$scale" -ge 1 ] && [ "$scale" -le 30 ] ||
  { echo "$0: --scale must be an integer 1..30, not '$scale'" >&2; exit 2; }
[[ "$reps" =~ ^[0-9]+$ ]] && [ "$reps" -ge 1 ] ||
  { echo "$0: --reps must be a positive integer, not '$reps'" >&2; exit 2; }
for exe in "$graphrun" "$build/graphrun-generate"; do
  [ -x "$exe" ] || { echo "$0: no $exe: build graphrun first (cmake --build $build), or pass --build DIR" >&2; exit 2; }
done
mkdir -p "$dir"
text=$dir/rmat$scale.txt
cache=$dir/rmat$scale.grb
[ -s "$text" ] || "$build/graphrun-generate" rmat "$scale" 16 -o "$text"
runs=("$text")
if [ "$inputs" = text ]; then
  [ -s "$cache" ] || "$graphrun" convert "$text" "$cache" -q
  runs+=("$cache")
fi
bytes=$(stat -c %s "$text")

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
calc() { awk "BEGIN { print $1 }"; }

# wc -l: the cost of reading the file (from the page cache after the first run).
wc -l "$text" >/dev/null
wc_runs=()
for ((i = 0; i < reps; i++)); do
  t0=$(now); wc -l "$text" >/dev/null; t1=$(now)
  wc_runs+=("$(calc "$t1 - $t0")")
done
wc_s=$(printf '%s\n' "${wc_runs[@]}" | median)

echo "R-MAT $scale: $(printf "%'d" "$bytes") bytes of edge list, $(nproc) host cores, $(date -u +%F)"
echo
printf '`wc -l`: %.3f s (%.0f MB/s)\n\n' "$wc_s" "$(calc "$bytes / $wc_s / 1e6")"
echo "| input | tol | device | wall s (median of $reps) | load s | parse MB/s | rank s | of which setup s | setup after the graph is on the device, in iterations | iterations | summary |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for input in "${runs[@]}"; do
  for tol in 1e-6 1e-10; do
    for device in cpu cuda; do
      walls=()
      line=
      for ((i = 0; i < reps; i++)); do
        t0=$(now)
        line=$("$graphrun" pagerank "$input" --device "$device" --tol "$tol" --top 0 2>&1 >/dev/null |
               grep "^pagerank:" | tail -1 || true)
        t1=$(now)
        walls+=("$(calc "$t1 - $t0")")
      done
      wall=$(printf '%s\n' "${walls[@]}" | median)
      load=$(sed -nE 's/.*load ([0-9.]+) s.*/\1/p' <<<"$line")
      rank=$(sed -nE 's/.*rank ([0-9.]+) s.*/\1/p' <<<"$line")
      setup=$(sed -nE 's/.*setup ([0-9.]+) s.*/\1/p' <<<"$line")
      iters=$(sed -nE 's/.* ([0-9]+) iterations? .*/\1/p' <<<"$line")
      prep=$(sed -nE 's/.* = ([0-9.]+) iterations;.*/\1/p' <<<"$line")
      rate=-
      [ "$input" = "$text" ] && [ -n "$load" ] && rate=$(printf '%.0f' "$(calc "$bytes / $load / 1e6")")
      printf '| %s | %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$input")" \
        "$tol" "$device" "$wall" "${load:--}" "$rate" "${rank:--}" "${setup:--}" "${prep:--}" \
        "${iters:--}" "$line"
    done
  done
done
