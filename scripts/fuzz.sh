#!/usr/bin/env bash
# Builds graphrun's libFuzzer targets (clang, with AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each one for a bounded time.
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs N] [--build DIR] [--out DIR] [TARGET...]
#
# TARGETs: edge_list edge_list_gz matrix_market cache gapbs labels (default: all).
# --time   seconds of fuzzing per target (default 30)
# --jobs   worker processes per target (libFuzzer -fork=N; default 1, no fork).
#          CPU time is about N x --time.
# --build  the clang build folder (default build-fuzz; configured when absent)
# --out    where corpora, logs and crash inputs go (default BUILD/fuzz-runs)
# --no-build  use the fuzz executables already in --build as they are
#
# Each target starts from its seed corpus (tests/fuzz/seeds/T), the inputs
# that once found bugs (tests/fuzz/regressions/T) and, for edge lists, the
# graphs shipped in datasets/; what it learns accumulates in OUT/corpus/T
# across runs. The summary gives executions, coverage and CPU seconds per
# target. Exit status 1 when any target found a crash, leak, timeout or
# failed check: the input is saved as OUT/crashes/T/crash-*; add it to
# tests/fuzz/regressions/T once fixed, so every build's tests replay it.
set -euo pipefail
cd "$(dirname "$0")/.."

time_s=30
jobs=1
build=build-fuzz
out=""
do_build=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_s=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(edge_list edge_list_gz matrix_market cache gapbs labels)
out=${out:-$build/fuzz-runs}

if [ $do_build -eq 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DGRAPHRUN_FUZZ=ON -DGRAPHRUN_CUDA=OFF -DGRAPHRUN_WERROR=ON -DGRAPHRUN_GRAPHBLAS=OFF >/dev/null
  fi
  cmake --build "$build" -j"$(nproc)" --target fuzz_targets
fi

mkdir -p "$out/logs"
status=0
printf '%-14s %10s %8s %8s %8s %9s  %s\n' target executions cov features corpus cpu_s result
for t in "${targets[@]}"; do
  exe="$build/tests/fuzz/fuzz_$t"
  [ -x "$exe" ] || { echo "fuzz.sh: no $exe (unknown target?)" >&2; exit 2; }
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  seeds=(tests/fuzz/seeds/"$t")
  [ -d tests/fuzz/regressions/"$t" ] && seeds+=(tests/fuzz/regressions/"$t")
  [ "$t" = edge_list ] && seeds+=(datasets/*/)
  fork=()
  [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=0)
  log="$out/logs/$t.log"
  # The CPU seconds of the fuzzer and every worker it forks (bash's `times`
  # reports the children's user and system time).
  set +e
  cpu=$( { ( "$exe" -max_total_time="$time_s" -rss_limit_mb=2048 -malloc_limit_mb=2048 \
               -timeout=10 -print_final_stats=1 -artifact_prefix="$out/crashes/$t/" "${fork[@]}" \
               "$out/corpus/$t" "${seeds[@]}" >"$log" 2>&1; echo $? >"$out/logs/$t.rc" );
           times; } | awk 'NR==2 { split($1,u,"m"); split($2,s,"m");
             printf "%.0f", u[1]*60 + u[2] + s[1]*60 + s[2] }')
  set -e
  rc=$(cat "$out/logs/$t.rc")
  # Executions and coverage from libFuzzer's last status line.
  last=$(grep -aE '^#[0-9]+' "$log" | tail -1)
  execs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#')
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}')
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | awk '{print $2}')
  corp=$(grep -oE 'corp: [0-9]+' <<<"$last" | awk '{print $2}')
  result=clean
  if [ "$rc" -ne 0 ] || ls "$out/crashes/$t" | grep -q .; then
    result="FOUND (rc $rc): see $log and $out/crashes/$t"
    status=1
  fi
  printf '%-14s %10s %8s %8s %8s %9s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" \
    "${corp:-?}" "$cpu" "$result"
done
exit $status
