#!/usr/bin/env bash
# Markov clustering at scale: `graphrun mcl FILE --device cuda` on the large
# shared graphs and on generated stand-ins, each beside the mcl program with
# every host core (`mcl --abc -te N`, run first, where it is installed), and
# graphrun's clusters scored against mcl's (ARI, NMI) through --truth.
# Wall times are of the whole command; graphrun's summary line (iterations,
# column blocks, largest iterand) is kept beside them.
#
#   scripts/mcl-at-scale.sh [--build DIR] [--device cuda|cpu] [--data DIR] [--timeout S]
#                           [--mcl-timeout S] [--deadline S] [--args 'ARGS'] [FILE...]
#
# --args passes more options to graphrun mcl (e.g. '--reorder auto').
#
# FILEs default to the shared graphs of >= 0.4M edges in --data (default
# .bench-data, else ../shared/datasets), then an R-MAT of scale 20 and edge
# factor 5 (the web-Google stand-in) and a uniform random graph of 0.9M
# vertices and degree 6. A run past its timeout is reported as such; no new
# graph is started after --deadline seconds. Writes a Markdown table on stdout.
set -uo pipefail
build="build-gpu"
device=cuda
data=.bench-data
[ -d "$data" ] || data=../shared/datasets
timeout_s=120
mcl_timeout=120
deadline=100000
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --mcl-timeout) mcl_timeout=$2; shift 2 ;;
    --deadline) deadline=$2; shift 2 ;;
    --args) read -r -a extra <<<"$2"; shift 2 ;;
    -*) echo "usage: $0 [--build DIR] [--device cuda|cpu] [--data DIR] [--timeout S] [--mcl-timeout S] [--deadline S] [--args 'ARGS'] [FILE...]" >&2; exit 2 ;;
    *) break ;;
  esac
done
graphrun=$build/graphrun
[ -x "$graphrun" ] || { echo "$0: no $graphrun: build graphrun first, or pass --build DIR" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/graphrun-mcl-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  for g in web-NotreDame soc-Slashdot0902 Cornell5 soc-Epinions1 cit-HepPh; do
    f=$(find "$data/$g" -name '*.txt.gz' 2>/dev/null | sort | head -1)
    [ -n "$f" ] && inputs+=("$f")
  done
  "$build/graphrun-generate" rmat 20 5 -o "$work/rmat20-ef5.txt"
  "$build/graphrun-generate" uniform 900000 6 -o "$work/uniform-900k-6.txt"
  inputs+=("$work/rmat20-ef5.txt" "$work/uniform-900k-6.txt")
fi
cores=$(nproc)
have_mcl=0
command -v mcl >/dev/null && have_mcl=1
now() { date +%s.%N; }
echo "Markov clustering at scale, $(date -u +%Y-%m-%d), $cores host cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
echo
echo "| graph | graphrun --device $device s | mcl -te $cores s | mcl / graphrun | ARI / NMI vs mcl | graphrun summary |"
echo "| --- | ---: | ---: | ---: | --- | --- |"
start=$SECONDS
for f in "${inputs[@]}"; do
  [ $((SECONDS - start)) -lt "$deadline" ] || { echo "| $(basename "$f") | not run: past the deadline | | | | |"; continue; }
  name=$(basename "$f")
  truth=()
  mcl_s=-
  # Both read the same label pairs (mcl's --abc): the edge list without its
  # comment lines and carriage returns (mcl would read "338\r" as a label of
  # its own: soc-Epinions1 has DOS line ends).
  case "$f" in *.gz) zcat "$f" ;; *) cat "$f" ;; esac | tr -d '\r' | grep -v '^[#%]' >"$work/in.abc"
  if [ "$have_mcl" = 1 ]; then
    t0=$(now)
    if timeout "$mcl_timeout" mcl "$work/in.abc" --abc -te "$cores" -o "$work/mcl.out" >"$work/mcl.log" 2>&1; then
      mcl_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
      # A vertex mcl puts in two clusters (overlap, which mcl can keep) is
      # scored in the first.
      awk '{ for (i = 1; i <= NF; ++i) if (!seen[$i]++) print $i "\t" NR }' "$work/mcl.out" >"$work/mcl.truth"
      truth=(--truth "$work/mcl.truth")
    else
      mcl_s="> $mcl_timeout"
    fi
  fi
  t0=$(now)
  if timeout "$timeout_s" "$graphrun" mcl "$work/in.abc" --abc --device "$device" -o /dev/null "${truth[@]}" "${extra[@]}" >"$work/g.log" 2>&1; then
    g_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
  else
    g_s="failed or > $timeout_s"
  fi
  summary=$(grep -m1 '^mcl: ' "$work/g.log" | tr '|' '/')
  score=$(grep -m1 'ARI' "$work/g.log" | sed -E 's/.*ARI ([0-9.]+), NMI ([0-9.]+).*/\1 \/ \2/')
  ratio=-
  [[ "$mcl_s" =~ ^[0-9.]+$ && "$g_s" =~ ^[0-9.]+$ ]] &&
    ratio=$(awk -v m="$mcl_s" -v g="$g_s" 'BEGIN { printf "%.1fx", m / g }')
  [ -n "$summary" ] || summary=$(tail -2 "$work/g.log" | tr '\n|' ' /')
  echo "| $name | $g_s | $mcl_s | $ratio | ${score:--} | $summary |"
done
