#!/usr/bin/env bash
# graphrun's GAP kernels beside the GAP reference (gapbs), on the same graph
# file and the same threads: each kernel's time alone (the median of
# gapbs's -n trials, from its "Trial Time" lines, and of as many graphrun
# --trials, from its summary, the graph loaded from a .grb cache made once;
# with --stat mean, gapbs's "Average Time" and graphrun's mean instead; on
# the GPU graphrun's time is its time on the device, with the graph there,
# as gapbs's is in memory: the median or mean of the trials as well), the ratio gapbs / graphrun (> 1:
# graphrun is faster) and a check that both found the same answer. The
# median is the default because a mean over the runs of a shared machine
# with every core busy is one slow run away from another figure: the
# first run of a process, whose memory is still being faulted in, or one
# that a core taken by something else held back at every barrier.
#
#   scripts/gap-vs-gapbs.sh [--threads T] [--reps R] [--rounds K] [--stat median|mean] [--device cpu|cuda]
#                           [--gapbs DIR] [--graphrun BIN] [--kernel bfs|pr|cc|sssp|tc|bc]...
#                           [--delta D] [--pr-method auto|jacobi|gauss-seidel|chebyshev] [--kron S]...
#                           [--uniform S]... [FILE...]
#
# FILEs are edge lists (SNAP .txt, plain or .gz; '#' comments and carriage
# returns dropped) or
# Matrix Market files (.mtx, .mtx.gz); --kron S and --uniform S add gapbs's
# own generated graphs (Graph500 Kronecker / uniform random, 2^S vertices,
# degree 16), written out by its converter. Every graph is taken as
# undirected (gapbs -s, graphrun --undirected). Kernels (--kernel, default
# all): bfs (direction-optimizing on both sides, from the first edge's tail;
# the check is the number of vertices reached, gapbs's from its -l step
# counts), pr (PageRank to an L1 change below 1e-6,
# damping 0.85, at most 100 iterations: gapbs's Gauss-Seidel pull in float,
# graphrun's default (auto: Chebyshev-accelerated Jacobi steps in double on
# these undirected graphs), or with --pr-method jacobi NetworkX's Jacobi
# iteration, with --pr-method gauss-seidel its deterministic block
# Gauss-Seidel sweep, so the iteration counts differ
# and are shown, with each answer's L1 distance from the fixed point (a
# Gauss-Seidel sweep's change understates its error; "—" for gapbs where
# vertices without edges make it solve another equation); the check is
# the top vertex), cc (weak components; gapbs's cc is Afforest, as graphrun's) and sssp
# (delta-stepping, both with bucket width --delta, default 2 as the GAP
# runs on Kronecker, web and social graphs; gapbs's converter gives every
# edge a weight of 1..255 as its sssp does, written to a weighted edge list
# that both programs read, from the source of the file's first edge; the
# check is the number of vertices reached) and tc (triangle counting: both
# orient by degree, gapbs relabelling the vertices when the degrees are
# skewed; the check is the count) and bc (Brandes from one source, the
# file's first edge's tail, gapbs -i 1 -r; the check is the vertex of the
# highest score). gapbs is built with make from
# DIR (default ../shared/anchors/gapbs, copied so the source stays clean).
# With --rounds K (default 1) every row is run K times, gapbs then graphrun
# each time, and its times are the medians over the rounds (each round's
# time the --stat of its --reps runs): on a shared host whose load comes and
# goes, one burst then shifts one round of one side, not the row's ratio.
# Writes a Markdown table per kernel on stdout.
set -uo pipefail
threads=$(nproc)
reps=5
rounds=1
stat=median
device=cpu
gapbs_src=$(cd "$(dirname "$0")/.." && pwd)/../shared/anchors/gapbs
bin=build/graphrun
gens=()
kernels=()
delta=2
pr_method=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --threads | --reps | --rounds | --stat | --device | --gapbs | --graphrun | --kernel | --delta | --kron | --uniform | --pr-method)
      [ $# -ge 2 ] || { echo "$0: $1 needs a value" >&2; exit 2; } ;;
  esac
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --stat) stat=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --gapbs) gapbs_src=$2; shift 2 ;;
    --graphrun) bin=$2; shift 2 ;;
    --kernel) kernels+=("$2"); shift 2 ;;
    --delta) delta=$2; shift 2 ;;
    --pr-method) pr_method=$2; shift 2 ;;
    --kron) gens+=("g $2"); shift 2 ;;
    --uniform) gens+=("u $2"); shift 2 ;;
    -*) echo "usage: $0 [--threads T] [--reps R] [--rounds K] [--stat median|mean] [--device cpu|cuda] [--gapbs DIR] [--graphrun BIN] [--kernel bfs|pr|cc|sssp|tc|bc]... [--delta D] [--pr-method auto|jacobi|gauss-seidel|chebyshev] [--kron S]... [--uniform S]... [FILE...]" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --threads needs a positive integer, not '$threads'" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --reps needs a positive integer, not '$reps'" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --rounds needs a positive integer, not '$rounds'" >&2; exit 2; }
[[ "$stat" =~ ^(median|mean)$ ]] || { echo "$0: --stat is median or mean, not '$stat'" >&2; exit 2; }
[[ "$device" =~ ^(cpu|cuda)$ ]] || { echo "$0: --device is cpu or cuda, not '$device'" >&2; exit 2; }
[ ${#kernels[@]} -gt 0 ] || kernels=(bfs pr cc sssp tc bc)
for k in "${kernels[@]}"; do [[ "$k" =~ ^(bfs|pr|cc|sssp|tc|bc)$ ]] || { echo "$0: --kernel is bfs, pr, cc, sssp, tc or bc, not '$k'" >&2; exit 2; }; done
[[ "$pr_method" =~ ^(auto|jacobi|gauss-seidel|chebyshev)$ ]] || { echo "$0: --pr-method is auto, jacobi, gauss-seidel or chebyshev, not '$pr_method'" >&2; exit 2; }
[[ "$delta" =~ ^[0-9]+$ ]] && [ "$delta" -ge 1 ] || { echo "$0: --delta needs a positive integer (gapbs's weights are integers), not '$delta'" >&2; exit 2; }
for g in "${gens[@]}"; do
  [[ "${g#? }" =~ ^[0-9]+$ ]] && [ "${g#? }" -le 28 ] || { echo "$0: --kron/--uniform need a scale 1..28, not '${g#? }'" >&2; exit 2; }
done
[ $# -gt 0 ] || [ ${#gens[@]} -gt 0 ] || { echo "$0: name a graph file, --kron S or --uniform S" >&2; exit 2; }
for input in "$@"; do [ -f "$input" ] && [ -r "$input" ] || { echo "$0: cannot read $input" >&2; exit 2; }; done
[ -x "$bin" ] || { echo "$0: $bin is not an executable (build graphrun first)" >&2; exit 2; }
[ -f "$gapbs_src/Makefile" ] || { echo "$0: no gapbs sources in $gapbs_src" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/graphrun-gapbs.XXXXXX")
trap 'rm -rf "$work"' EXIT

cp -r "$gapbs_src" "$work/gapbs"
# Its converter ends every edge-list line with std::endl, a flush per line:
# a scale-22 graph would take minutes to write. '\n' in the copy instead.
sed -i 's/ << std::endl;/ << "\\n";/' "$work/gapbs/src/writer.h"
# pr writes its scores to $GAPBS_PR_DUMP when that is set (with -a), so that
# the accuracy of both answers can be measured against the fixed point.
awk '{print} /^void PrintTopScores\(const Graph &g, const pvector<ScoreT> &scores\) \{$/ {
  print "  if (const char* dump = std::getenv(\"GAPBS_PR_DUMP\")) {"
  print "    std::FILE* f = std::fopen(dump, \"w\");"
  print "    for (NodeID n = 0; n < g.num_nodes(); n++) std::fprintf(f, \"%d\\t%.9g\\n\", (int)n, scores[n]);"
  print "    std::fclose(f);"
  print "  }"
}' "$work/gapbs/src/pr.cc" >"$work/pr.cc" && { printf '#include <cstdio>\n#include <cstdlib>\n'; cat "$work/pr.cc"; } >"$work/gapbs/src/pr.cc"
make -C "$work/gapbs" -j"$(nproc)" bfs pr cc sssp tc bc converter >"$work/make.log" 2>&1 ||
  { echo "$0: building gapbs failed:" >&2; tail -20 "$work/make.log" >&2; exit 1; }
gapbs=$work/gapbs
export OMP_NUM_THREADS=$threads

# as_edge_list FILE OUT: FILE as plain 'u v' (.el) or .mtx text.
as_edge_list() {
  local cat=cat
  [[ "$1" == *.gz ]] && cat="gzip -dc"
  if [[ "$1" == *.mtx || "$1" == *.mtx.gz ]]; then $cat "$1" >"$2.mtx" && echo "$2.mtx"
  else $cat "$1" | tr -d '\r' | grep -v '^[#%]' | awk '{print $1, $2}' >"$2.el" && echo "$2.el"; fi
}

bfs_rows=""
pr_rows=""
cc_rows=""
sssp_rows=""
tc_rows=""
bc_rows=""
# time_cells GAP_MS OURS_MS: a row's three time cells, gapbs's, graphrun's
# and gapbs / graphrun.
time_cells() {
  cells_of "$1" "$2"
  # Each round's pair, for rounds_row (rows are made in subshells).
  echo "$1 $2" >>"$work/round_times"
}
cells_of() {
  # (a time that rounds to 0.00 ms gives no ratio)
  printf '%.2f | %s | %s' "$1" "$2" "$(awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else printf "-"}')"
}

# rounds_row KERNEL NAME FILE: KERNEL's row run --rounds times; prints the
# last round's row with its time cells made from the medians of the
# rounds' times, graphrun's with its spread ("ms (fastest-slowest)").
rounds_row() {
  local k=$1 line="" last g o lo hi ratio
  : >"$work/round_times"
  for _ in $(seq "$rounds"); do line=$("${k}_row" "$2" "$3"); done
  [ "$rounds" -gt 1 ] && [ "$(wc -l <"$work/round_times")" -eq "$rounds" ] || { echo "$line"; return; }
  last=$(tail -1 "$work/round_times" | { read -r g o; cells_of "$g" "$o"; })
  g=$(cut -d' ' -f1 "$work/round_times" | stat=median summarize)
  o=$(cut -d' ' -f2 "$work/round_times" | stat=median summarize)
  lo=$(cut -d' ' -f2 "$work/round_times" | sort -g | head -1)
  hi=$(cut -d' ' -f2 "$work/round_times" | sort -g | tail -1)
  ratio=$(awk -v a="$g" -v b="$o" 'BEGIN {if (b > 0) printf "%.2f", a / b; else printf "-"}')
  echo "${line/"$last"/$(printf '%.2f | %.2f (%s-%s) | %s' "$g" "$o" "$lo" "$hi" "$ratio")}"
}

# summarize <<<VALUES: the median (--stat median) or the mean of one value
# per line, with four decimals; nothing for no values.
summarize() {
  sort -g | awk -v stat="$stat" '{v[n++] = $1; s += $1}
    END {if (!n) exit; if (stat == "mean") m = s / n; else if (n % 2) m = v[int(n / 2)];
         else m = (v[n / 2 - 1] + v[n / 2]) / 2; printf "%.4f", m}'
}

# gap_ms <<<OUTPUT: gapbs's time in ms over its trials (its "Trial Time"
# lines, one per trial).
gap_ms() {
  awk '/^Trial Time/ {print $3 * 1000}' | summarize
}

# kernel_ms KERNEL <<<SUMMARY: the time a graphrun summary gives, in ms: on
# the GPU the device's time (the graph on it, as gapbs's is in memory; the
# median of the trials with --stat median, as gapbs's side is read),
# where the summary gives one, and pagerank's "iterations" (its "rank" time
# also holds the upload, the transpose and the format build, as the other
# kernels' device time does not), on the CPU the median of the --trials runs ("median 0.0058 s") or, with
# --stat mean or one run, the mean after KERNEL ("cc 0.0058 s").
kernel_ms() {
  local summary
  summary=$(cat)
  if [ "$device" = cuda ] && [ "$stat" = median ] &&
     grep -q 'on the device [0-9.]* s of each run, median [0-9.]* s' <<<"$summary"; then
    sed -n 's/.*on the device [0-9.]* s of each run, median \([0-9.]*\) s.*/\1/p' <<<"$summary"
  elif [ "$device" = cuda ] && grep -q 'on the device [0-9.]* s' <<<"$summary"; then
    sed -n 's/.*on the device \([0-9.]*\) s.*/\1/p' <<<"$summary"
  elif [ "$device" = cuda ] && grep -q '; iterations [0-9.]* s;' <<<"$summary"; then
    sed -n 's/.*; iterations \([0-9.]*\) s;.*/\1/p' <<<"$summary"
  elif [ "$stat" = median ] && grep -q '; median [0-9.]* s' <<<"$summary"; then
    sed -n 's/.*; median \([0-9.]*\) s.*/\1/p' <<<"$summary"
  else sed -n "s/.*, $1 \([0-9.]*\) s.*/\1/p" <<<"$summary"; fi | awk '{print 1000 * $1}'
}

cc_row() {  # cc_row NAME FILE
  local name=$1 file=$2 grb=$work/g.grb
  [ "$generated" = 1 ] || "$bin" convert "$file" "$grb" --undirected --quiet 2>"$work/convert.err" ||
    { echo "| $name | convert failed: $(head -c 200 "$work/convert.err") | | | | | |"; return; }
  local out t_gap gap_count ours summary count n m isolated same
  out=$("$gapbs/cc" "${gap_input[@]}" -n "$reps" -a 2>&1) || { echo "| $name | gapbs failed | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  gap_count=$(awk '/There are/ {print $3}' <<<"$out")
  summary=$("$bin" cc "$grb" --threads "$threads" --device "$device" --trials "$reps" -o /dev/null 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | |"; return; }
  ours=$(kernel_ms cc <<<"$summary" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^cc: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  m=$(sed -n 's/.*(\([0-9]*\) stored entries).*/\1/p' <<<"$summary")
  count=$(sed -n 's/.*, \([0-9]*\) weak components.*/\1/p' <<<"$summary")
  # gapbs numbers vertices 0..max id (the N of its "Graph has N nodes"), so
  # ids absent from the file are components of their own there; graphrun
  # keeps only the ids present.
  isolated=$(($(awk '/^Graph has/ {print $3}' <<<"$out") - n))
  same=no; [ "$gap_count" = $((count + isolated)) ] && same=yes
  echo "| $name | $n | $m | $(time_cells "$t_gap" "$ours") | $same ($count) |"
}

sssp_row() {  # sssp_row NAME FILE (unweighted; gapbs's converter adds the weights)
  local name=$1 file=$2 wel=$work/w.wel grb=$work/w.grb gap_weighted=(-f "$work/w.wel")
  if [ "$generated" = 1 ]; then
    gap_weighted=(-f "$work/gen.wsg")
  else
    "$gapbs/converter" -f "$file" -s -w -e "$wel" >/dev/null 2>&1 || { echo "| $name | converter failed | | | | | |"; return; }
    "$bin" convert "$wel" "$grb" --quiet 2>"$work/convert.err" ||
      { echo "| $name | convert failed: $(head -c 200 "$work/convert.err") | | | | | |"; return; }
  fi
  local source out t_gap gap_reached summary ours reached n m same
  source=$(head -1 "$wel" | awk '{print $1}')
  out=$("$gapbs/sssp" "${gap_weighted[@]}" -n "$reps" -r "$source" -d "$delta" -a 2>&1) || { echo "| $name | gapbs failed | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  gap_reached=$(awk '/SSSP Tree reaches/ {print $4}' <<<"$out")
  # The GPU takes its own bucket width (sssp.hpp: wide buckets, few host
  # round trips); the CPU gapbs's.
  local ours_delta=(--delta "$delta")
  [ "$device" = cuda ] && ours_delta=()
  summary=$("$bin" sssp "$grb" --source "$source" "${ours_delta[@]}" --threads "$threads" --device "$device" \
            --trials "$reps" -o /dev/null 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | |"; return; }
  ours=$(kernel_ms sssp <<<"$summary" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^sssp: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  # Stored entries: "(M stored entries)" for an undirected graph (a
  # generated one, read from its .wsg), "M edges" for a directed one.
  m=$(sed -n 's/.*(\([0-9]*\) stored entries).*/\1/p' <<<"$summary")
  [ -n "$m" ] || m=$(sed -n 's/^sssp: [0-9]* vertices, \([0-9]*\) edges.*/\1/p' <<<"$summary")
  reached=$(sed -n 's/.*, reached \([0-9]*\),.*/\1/p' <<<"$summary")
  same=no; [ "$gap_reached" = "$reached" ] && same=yes
  echo "| $name | $n | $m | $source | $(time_cells "$t_gap" "$ours") | $same ($reached) |"
}

tc_row() {  # tc_row NAME FILE
  local name=$1 file=$2 grb=$work/g.grb
  [ "$generated" = 1 ] || "$bin" convert "$file" "$grb" --undirected --quiet 2>"$work/convert.err" ||
    { echo "| $name | convert failed: $(head -c 200 "$work/convert.err") | | | | | |"; return; }
  local out t_gap gap_count summary ours count n m same
  out=$("$gapbs/tc" "${gap_input[@]}" -n "$reps" -a 2>&1) || { echo "| $name | gapbs failed | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  gap_count=$(awk '$2 == "triangles" {print $1}' <<<"$out" | tail -1)
  summary=$("$bin" triangles "$grb" --threads "$threads" --device "$device" --trials "$reps" 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | |"; return; }
  ours=$(kernel_ms triangles <<<"$summary" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^triangles: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  m=$(sed -n 's/.*, \([0-9]*\) undirected edges (.*/\1/p' <<<"$summary")
  count=$(sed -n 's/.*, \([0-9]*\) triangles, .*/\1/p' <<<"$summary")
  same=no; [ "$gap_count" = "$count" ] && same=yes
  echo "| $name | $n | $m | $(time_cells "$t_gap" "$ours") | $same ($count) |"
}

bc_row() {  # bc_row NAME FILE (through gapbs's converter, so both number the vertices alike)
  local name=$1 file grb=$work/g.grb
  file=$(through_converter "$name" "$2") || { echo "$file"; return; }
  local source out t_gap gap_top summary ours top n m same
  source=$(head -1 "$file" | awk '{print $1}')
  out=$("$gapbs/bc" "${gap_input[@]}" -n "$reps" -i 1 -r "$source" -a 2>&1) || { echo "| $name | gapbs failed | | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  # gapbs adds the source's own dependency to its score: its top vertex
  # other than the source is graphrun's top.
  gap_top=$(grep -E '^[0-9]+:[0-9.e+-]+$' <<<"$out" | cut -d: -f1 | grep -vx "$source" | head -1)
  summary=$("$bin" bc "$grb" --source "$source" --threads "$threads" --device "$device" --trials "$reps" \
            -o /dev/null 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | | |"; return; }
  ours=$(kernel_ms bc <<<"$summary" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^bc: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  m=$(sed -n 's/.*(\([0-9]*\) stored entries).*/\1/p' <<<"$summary")
  top=$(sed -n 's/.*, highest \([^ ]*\) (.*/\1/p' <<<"$summary")
  same=no; [ "$gap_top" = "$top" ] && same=yes
  echo "| $name | $n | $m | $source | $(time_cells "$t_gap" "$ours") | $same ($top) |"
}

# through_converter NAME FILE: FILE through gapbs's converter into
# $work/b.el (so that both programs number the vertices alike) and from it
# graphrun's $work/g.grb; prints the edge list both number alike (a
# generated graph's own, already in gapbs's numbering and converted), or,
# where either program fails, the table row that says so, with status 1.
through_converter() {
  if [ "$generated" = 1 ]; then echo "$2"; return 0; fi
  "$gapbs/converter" -f "$2" -s -e "$work/b.el" >/dev/null 2>&1 || { echo "| $1 | converter failed | | | | | | |"; return 1; }
  "$bin" convert "$work/b.el" "$work/g.grb" --undirected --quiet 2>"$work/convert.err" ||
    { echo "| $1 | convert failed: $(head -c 200 "$work/convert.err") | | | | | | |"; return 1; }
  echo "$work/b.el"
}

bfs_row() {  # bfs_row NAME FILE (through gapbs's converter, so both number the vertices alike)
  local name=$1 file grb=$work/g.grb
  file=$(through_converter "$name" "$2") || { echo "$file"; return; }
  local source out t_gap gap_reached summary ours reached n m same
  source=$(head -1 "$file" | awk '{print $1}')
  out=$("$gapbs/bfs" "${gap_input[@]}" -n "$reps" -r "$source" 2>&1) || { echo "| $name | gapbs failed | | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  # Its step log: every td/bu line counts the vertices that step reached.
  gap_reached=$("$gapbs/bfs" "${gap_input[@]}" -n 1 -r "$source" -l 2>&1 | awk '$1 == "td" || $1 == "bu" {s += $2} END {print s + 1}')
  # R searches in one process, as gapbs's -n.
  summary=$("$bin" bfs "$grb" --source "$source" --threads "$threads" --device "$device" --trials "$reps" -o /dev/null 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | | |"; return; }
  ours=$(kernel_ms bfs <<<"$summary" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^bfs: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  m=$(sed -n 's/.*(\([0-9]*\) stored entries).*/\1/p' <<<"$summary")
  reached=$(sed -n 's/.*, reached \([0-9]*\),.*/\1/p' <<<"$summary")
  same=no; [ "$gap_reached" = "$reached" ] && same=yes
  echo "| $name | $n | $m | $source | $(time_cells "$t_gap" "$ours") | $same ($reached) |"
}

pr_row() {  # pr_row NAME FILE
  local name=$1 grb=$work/g.grb failed
  failed=$(through_converter "$name" "$2") || { echo "$failed"; return; }
  local out t_gap gap_iters gap_top summary timed ours iters top n m same
  out=$("$gapbs/pr" "${gap_input[@]}" -n "$reps" -i 100 -t 1e-6 -a 2>&1) || { echo "| $name | gapbs failed | | | | | | | |"; return; }
  t_gap=$(gap_ms <<<"$out")
  gap_top=$(grep -E '^[0-9]+:[0-9.e+-]+$' <<<"$out" | head -1 | cut -d: -f1)
  gap_iters=$(GAPBS_PR_DUMP=$work/pr_gapbs.tsv "$gapbs/pr" "${gap_input[@]}" -n 1 -i 100 -t 1e-6 -l -a 2>&1 | awk 'NF == 2 && $1 ~ /^[0-9]+$/ {n++} END {print n}')
  # One run for the top vertex, the counts and the ranks (and to warm up), R more for the time.
  summary=$("$bin" pagerank "$grb" --tol 1e-6 --max-iter 100 --method "$pr_method" -k 1 --threads "$threads" --device "$device" -o "$work/pr_ours.tsv" 2>&1) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$summary") | | | | | | | |"; return; }
  # Each answer's L1 distance from the fixed point (graphrun's Jacobi
  # iteration to an L1 change below 1e-14), by vertex id. gapbs does not
  # spread the rank of vertices without edges, so where there are any its
  # scores sum below 1 and solve a different equation: no distance then.
  local accuracy=—
  if "$bin" pagerank "$grb" --tol 1e-14 --max-iter 5000 --method jacobi -k 0 --threads "$threads" -o "$work/pr_fixed.tsv" >/dev/null 2>&1; then
    accuracy=$(awk -F'\t' 'FILENAME == ARGV[1] {fixed[$1] = $2; next}
      FILENAME == ARGV[2] {d = $2 - fixed[$1]; gap += d < 0 ? -d : d; gap_sum += $2; next}
      {d = $2 - fixed[$1]; ours += d < 0 ? -d : d}
      END {if (gap_sum < 1 - 1e-5 || gap_sum > 1 + 1e-5) printf "— / %.1e", ours; else printf "%.1e / %.1e", gap, ours}' \
      "$work/pr_fixed.tsv" "$work/pr_gapbs.tsv" "$work/pr_ours.tsv")
  fi
  # R runs in one process, as gapbs's -n.
  timed=$("$bin" pagerank "$grb" --tol 1e-6 --max-iter 100 --method "$pr_method" -k 0 --threads "$threads" \
          --device "$device" --trials "$reps" 2>&1 >/dev/null) ||
    { echo "| $name | graphrun failed: $(tail -c 200 <<<"$timed") | | | | | | | |"; return; }
  ours=$(kernel_ms rank <<<"$timed" | awk '{printf "%.2f", $1}')
  n=$(sed -n 's/^pagerank: \([0-9]*\) vertices, .*/\1/p' <<<"$summary")
  m=$(sed -n 's/.*(\([0-9]*\) stored entries).*/\1/p' <<<"$summary")
  iters=$(sed -n 's/.*, \([0-9]*\) iterations (.*/\1/p' <<<"$summary")
  top=$(grep -E '^[0-9]+'$'\t' <<<"$summary" | head -1 | cut -f1)
  same=no; [ "$gap_top" = "$top" ] && same=yes
  echo "| $name | $n | $m | $gap_iters / $iters | $accuracy | $(time_cells "$t_gap" "$ours") | $same ($top) |"
}

row() {  # row NAME FILE: every kernel asked for, each row also on stderr as it is made
  local line
  for k in "${kernels[@]}"; do
    case $k in
      bfs) line=$(rounds_row bfs "$1" "$2"); bfs_rows+="$line"$'\n' ;;
      pr) line=$(rounds_row pr "$1" "$2"); pr_rows+="$line"$'\n' ;;
      cc) line=$(rounds_row cc "$1" "$2"); cc_rows+="$line"$'\n' ;;
      sssp) line=$(rounds_row sssp "$1" "$2"); sssp_rows+="$line"$'\n' ;;
      tc) line=$(rounds_row tc "$1" "$2"); tc_rows+="$line"$'\n' ;;
      bc) line=$(rounds_row bc "$1" "$2"); bc_rows+="$line"$'\n' ;;
    esac
    echo "$k $line" >&2
  done
}
# first_edge SG OUT [ENTRY_BYTES]: the first stored edge of a gapbs
# serialized graph as an edge-list line (its tail is the first vertex with an
# edge: the source the kernels take from a file's first line), read from the
# row offsets at byte 17 and the neighbours after them (4 bytes each in a
# .sg, 8 in a .wsg: the neighbour, then its weight).
first_edge() {
  local n tail at head entry=${3:-4}
  n=$(od -A n -t d8 -j 9 -N 8 "$1" | tr -d ' ')
  tail=$(od -A n -t d8 -j 17 -N $((8 * (n + 1))) -v "$1" | tr -s ' ' '\n' | grep -v '^$' |
         awk 'NR > 1 && $1 > prev {print NR - 2; exit} {prev = $1}')
  at=$(od -A n -t d8 -j $((17 + 8 * tail)) -N 8 "$1" | tr -d ' ')
  head=$(od -A n -t d4 -j $((17 + 8 * (n + 1) + entry * at)) -N 4 "$1" | tr -d ' ')
  echo "$tail $head" >"$2"
}
# A generated graph is made once as gapbs's serialized graph (.sg, and .wsg
# with the weights for sssp), which both programs read: gapbs in a fraction
# of the time its text reader takes, graphrun through `convert` into its
# .grb caches (an edge list of the same graph took minutes to write and
# parse at scale 24).
generated=1
for g in "${gens[@]}"; do
  kind=${g%% *} scale=${g#? }
  gap_input=(-f "$work/gen.sg")
  made=1
  "$gapbs/converter" "-$kind" "$scale" -b "$work/gen.sg" >/dev/null 2>&1 &&
    "$bin" convert "$work/gen.sg" "$work/g.grb" --undirected --quiet 2>"$work/convert.err" &&
    first_edge "$work/gen.sg" "$work/gen.first" || made=0
  if [ "$made" = 1 ] && [[ " ${kernels[*]} " == *" sssp "* ]]; then
    "$gapbs/converter" "-$kind" "$scale" -w -b "$work/gen.wsg" >/dev/null 2>&1 &&
      "$bin" convert "$work/gen.wsg" "$work/w.grb" --quiet 2>>"$work/convert.err" &&
      first_edge "$work/gen.wsg" "$work/w.wel" 8 || made=0
  fi
  [ "$made" = 1 ] || { echo "| -$kind $scale | converter or convert failed: $(head -c 200 "$work/convert.err") | | | | | |"; continue; }
  row "gapbs -$kind $scale" "$work/gen.first"
  rm -f "$work"/gen.* "$work"/w.wel
done
generated=0
for input in "$@"; do
  file=$(as_edge_list "$input" "$work/input") || { echo "| $(basename "$input") | unreadable | | | | | |"; continue; }
  gap_input=(-sf "$file")
  row "$(basename "$input")" "$file"
done
if [ -n "$bfs_rows" ]; then
  echo "| graph | vertices | stored entries | source | gapbs bfs ms | graphrun bfs ms | gapbs / graphrun | same vertices reached |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$bfs_rows"
  echo
fi
if [ -n "$pr_rows" ]; then
  echo "| graph | vertices | stored entries | iterations gapbs / graphrun | L1 from the fixed point gapbs / graphrun | gapbs pr ms | graphrun pagerank ms | gapbs / graphrun | same top vertex |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$pr_rows"
  echo
  if [ "$pr_method" = jacobi ]; then
    echo "pr: to an L1 change below 1e-6, damping 0.85; gapbs's Gauss-Seidel pull in float, graphrun's Jacobi iteration in double, x gathered from a float copy where it is past the caches."
  elif [ "$pr_method" = chebyshev ] || [ "$pr_method" = auto ]; then
    echo "pr: to an L1 change below 1e-6, damping 0.85; gapbs's Gauss-Seidel pull in float, graphrun's Chebyshev-accelerated Jacobi iteration in double (--method $pr_method; its stopping rule is the L1 change of a Jacobi step, as jacobi's), x gathered from a float copy where it is past the caches."
  else
    echo "pr: to an L1 change below 1e-6, damping 0.85; gapbs's Gauss-Seidel pull in float (every thread reading the others' updates as they land), graphrun's block Gauss-Seidel in double (--method gauss-seidel: a block of vertices per thread, deterministic)."
  fi
fi
if [ -n "$cc_rows" ]; then
  echo "| graph | vertices | stored edges | gapbs cc ms | graphrun cc ms | gapbs / graphrun | same components |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$cc_rows"
  echo
fi
if [ -n "$sssp_rows" ]; then
  echo "| graph | vertices | stored entries | source | gapbs sssp ms | graphrun sssp ms | gapbs / graphrun | same vertices reached |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$sssp_rows"
  echo
  if [ "$device" = cuda ]; then
    echo "sssp: gapbs's delta-stepping with delta $delta; graphrun's GPU with its automatic delta (32 x mean weight / mean degree); weights 1..255 from gapbs's converter."
  else
    echo "sssp: delta-stepping with delta $delta on both sides, weights 1..255 from gapbs's converter."
  fi
fi
if [ -n "$tc_rows" ]; then
  echo "| graph | vertices | undirected edges | gapbs tc ms | graphrun triangles ms | gapbs / graphrun | same count |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$tc_rows"
  echo
fi
if [ -n "$bc_rows" ]; then
  echo "| graph | vertices | stored entries | source | gapbs bc ms | graphrun bc ms | gapbs / graphrun | same top vertex |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$bc_rows"
  echo
fi
if [ "$device" = cuda ]; then
  echo "$threads threads, device cuda, $reps runs each; times are the kernel alone (no loading): gapbs's the $stat of its runs, graphrun's the $stat of its trials' time on the device (PageRank: one run's iterations)."
else
  echo "$threads threads, device cpu, $reps runs each; times are the kernel alone (no loading), the $stat of each side's runs."
fi
if [ "$rounds" -gt 1 ]; then
  echo "Each row run $rounds times (gapbs, then graphrun, each time): its times are the medians over the rounds; graphrun's fastest and slowest round in brackets."
fi
