#!/usr/bin/env bash
# Build graphrun with the CUDA backend on a machine with an NVIDIA GPU and run
# every test there: the GPU tests for real (they skip only where no GPU is
# present), the small GPU cases again under compute-sanitizer, and the CPU
# suite. Each step prints a result line as it ends; the logs are kept in
# $OUT/logs and packed into $OUT/gpu-check-logs.tar.gz; a summary table is
# printed last and saved as $OUT/summary.md.
#
#   scripts/gpu-check.sh [--arch 90] [--no-sanitizer] [--only REGEX] [--bench CMD] [--scale 'N D'] [--tests]
#
#   --only REGEX   build and run only the test executables whose names match
#                  (e.g. '^test_cuda_spmv$'), skipping the full CPU suite
#   SANITIZE_ONLY=REGEX  compute-sanitizer only the GPU test executables matching
#                  it (the others still run, without the tools); SANITIZER_LIMIT=S caps each;
#                  MEMCHECK_ONLY / RACECHECK_ONLY narrow one tool alone (default SANITIZE_ONLY;
#                  racecheck's default list is the binaries below, RACECHECK_ONLY takes any);
#                  SANITIZER_SHARDS=K splits each executable's tests into K runs side by side
#                  (GoogleTest's sharding), each capped on its own; SANITIZER_FILTER=PATTERNS
#                  runs only the tests matching these GoogleTest patterns under the tools
#   --bench CMD    afterwards run CMD (e.g. 'build-gpu/graphrun bench spmv --suite ...'),
#                  its output saved as $OUT/bench.md
#   --scale 'N D'  run graphrun-scale-check --vertices N --degree D --device cuda: PageRank and
#                  BFS on the circulant digraph v -> v+1 .. v+D (mod N), N*D edges, built in
#                  memory, every vertex checked against the closed forms; its table is saved
#                  as $OUT/scale.md. May be given more than once. Without --only, only that
#                  program is built and the test suite and sanitizers are skipped. The big
#                  case, past 2^32 edges (4.39e9; ~38 GiB host, ~51 GiB device at most):
#                  --scale '34000000 129'. SCALE_HOST_MEMORY_GIB=G passes --host-memory G (a
#                  machine whose memory is plugged in as it is used reads too little at start)
#   --tests        with --scale: the whole build and the GPU tests (and sanitizers) too
#   NO_CPU_TESTS=1 leave out the CPU suite (CI runs it)
#   NO_GPU_TESTS=1 leave out the plain GPU test run (a second call on a warm machine that
#                  only sanitizes what the first one built and tested)
#
# Without network access, missing build dependencies are unpacked from the
# Debian packages in .deps/ (scripts/fetch-gpu-deps.sh downloads them). A
# copy of the shared graph collection in .bench-data/ is handed to the tests.
set -uo pipefail
cd "$(dirname "$0")/.."
arch=90
sanitize=1
only=
bench=
scales=()
with_tests=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --no-sanitizer) sanitize=0; shift ;;
    --only) only=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --scale) scales+=("$2"); shift 2 ;;
    --tests) with_tests=1; shift ;;
    *) echo "usage: $0 [--arch SM] [--no-sanitizer] [--only REGEX] [--bench CMD] [--scale 'N D']" >&2; exit 2 ;;
  esac
done
for s in "${scales[@]}"; do
  [[ "$s" =~ ^[0-9]+\ [0-9]+$ ]] || { echo "$0: --scale needs 'N D' (two integers), not '$s'" >&2; exit 2; }
done
# --scale alone: that program only, no test suite.
scale_only=0
[ ${#scales[@]} -gt 0 ] && [ -z "$only" ] && [ "$with_tests" = 0 ] && scale_only=1 && sanitize=0
out=${OUT:-$PWD/gpu-check-out}
logs=$out/logs
mkdir -p "$logs"
export PATH=/usr/local/cuda/bin:$PATH
summary=()
record() {  # record LINE: keep a "name|result|time" line and print it now
  summary+=("$1")
  echo "step: $1"
}
step() {  # step NAME COMMAND...: run, log to $logs/NAME.log, record the result
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$logs/$name.log" 2>&1; then record "$name|pass|$((SECONDS - t0)) s"
  else record "$name|FAIL ($?)|$((SECONDS - t0)) s"; tail -40 "$logs/$name.log"; fi
}
# step_bg NAME COMMAND...: the same in the background; finish with wait_steps.
step_bg() {
  local name=$1; shift
  ( local t0=$SECONDS
    if "$@" >"$logs/$name.log" 2>&1; then echo "$name|pass|$((SECONDS - t0)) s"
    else echo "$name|FAIL ($?)|$((SECONDS - t0)) s"; fi ) >"$logs/$name.result" &
}
wait_steps() {
  wait
  local f
  for f in "$logs"/*.result; do
    [ -e "$f" ] || continue
    record "$(cat "$f")"
    case "$(cat "$f")" in *FAIL*) tail -40 "${f%.result}.log" ;; esac
    rm -f "$f"
  done
}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$logs/gpu.txt" 2>&1
cat "$logs/gpu.txt"

cmake_args=(-DCMAKE_BUILD_TYPE=Release -DGRAPHRUN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch"
            -DGRAPHRUN_WERROR=ON)
if [ -d .deps ] && ls .deps/*.deb >/dev/null 2>&1; then
  prefix=/tmp/graphrun-deps
  rm -rf "$prefix"; mkdir -p "$prefix"
  for f in .deps/*.deb; do dpkg -x "$f" "$prefix"; done
  zlib=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)
  cmake_args+=(-DCMAKE_PREFIX_PATH="$prefix/usr" -DZLIB_INCLUDE_DIR="$prefix/usr/include"
               -DZLIB_LIBRARY="$zlib" -DBoost_INCLUDE_DIR="$prefix/usr/include"
               -DCLI11_DIR="$prefix/usr/share/cmake/CLI11")
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# The shared real graphs, where a copy travelled with the tree.
[ -d .bench-data ] && cmake_args+=(-DGRAPHRUN_SHARED_DATASETS="$PWD/.bench-data")
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
step configure cmake -S . -B build-gpu "${gen[@]}" "${cmake_args[@]}"
if [ "$scale_only" = 1 ]; then
  step build cmake --build build-gpu -j"$(nproc)" --target graphrun_scale_check
elif [ -n "$only" ]; then
  # The test executables' targets (not the build tool's internal rule names).
  targets=$(cmake --build build-gpu --target help 2>/dev/null |
            sed -E 's/^\.\.\. //; s/:.*//' | grep -E '^[A-Za-z0-9_]*test[A-Za-z0-9_]*$' |
            grep -v '^cmake_' | sort -u | grep -E "$only")
  [ ${#scales[@]} -gt 0 ] && targets="$targets graphrun_scale_check"
  # shellcheck disable=SC2086
  step build cmake --build build-gpu -j"$(nproc)" --target graphrun_cli $targets
  for t in $(find build-gpu/tests -type f -executable -name '*test*' | sort); do
    [[ "$(basename "$t")" =~ $only ]] && step "run-$(basename "$t")" "$t"
  done
else
  step build cmake --build build-gpu -j"$(nproc)"
  run_gpu_tests=1
fi
if [ "$sanitize" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # Small cases only (the *Large* ones are 10-100x slower under the tools),
  # the runs side by side and beside the plain GPU test run: memcheck on every GPU test binary; racecheck on
  # those whose kernels share memory between threads (SpMV tiles and carries,
  # SpGEMM hash tables, PageRank's block reductions, MCL's segmented sort, row statistics'
  # shared histogram, BFS's block scans in its device-side level loop, which
  # SSSP's and betweenness's loops share; RACECHECK_ONLY names any binary,
  # those two included). Each run is capped at
  # SANITIZER_LIMIT seconds; a cap reached reads FAIL (124).
  san_limit=${SANITIZER_LIMIT:-450}
  shards=${SANITIZER_SHARDS:-1}
  memcheck_only=${MEMCHECK_ONLY:-${SANITIZE_ONLY:-}}
  racecheck_only=${RACECHECK_ONLY:-${SANITIZE_ONLY:-}}
  # SANITIZER_FILTER=PATTERNS: run only the tests matching these GoogleTest patterns
  # (e.g. 'CudaBfs/*:MclCuda.ColumnBlocks*'), still without the *Large* ones.
  san_filter="${SANITIZER_FILTER:-}-*Large*:*TooLarge*"
  # sanitized_run LIMIT TOOL EXE [OPTIONS...]: one capped compute-sanitizer run. A shard
  # that runs no test, or only tests that never touch CUDA, ends in the tool's "terminated
  # before first instrumented API call" (status 255): that is a pass with nothing to check.
  sanitized_run() {
    local limit=$1 tool=$2 t=$3 log rc; shift 3
    log=$(mktemp)
    timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 1 "$@" "$t" \
      --gtest_filter="$san_filter" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    if [ "$rc" = 255 ] && grep -q 'terminated before first instrumented API call' "$log" &&
      grep -q '^\[  PASSED  \]' "$log" && ! grep -q '^\[  FAILED  \]' "$log"; then
      rc=0
    fi
    rm -f "$log"
    return "$rc"
  }
  # sanitize TOOL EXE [OPTIONS...]: one run per shard, in the background.
  sanitize() {
    local tool=$1 t=$2 k name; shift 2
    for ((k = 0; k < shards; k++)); do
      name="$tool-$(basename "$t")"
      [ "$shards" = 1 ] || name+="-$((k + 1))of$shards"
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k step_bg "$name" \
        sanitized_run "$san_limit" "$tool" "$t" "$@"
    done
  }
  for t in build-gpu/tests/cuda/test_*; do
    [ -x "$t" ] || continue
    [ -z "$only" ] || [[ "$(basename "$t")" =~ $only ]] || continue
    name=$(basename "$t")
    if [ -z "$memcheck_only" ] || [[ "$name" =~ $memcheck_only ]]; then
      sanitize memcheck "$t" --leak-check full
    fi
    if [ -n "${RACECHECK_ONLY:-}" ]; then
      [[ "$name" =~ $RACECHECK_ONLY ]] && sanitize racecheck "$t"
      continue
    fi
    [ -z "$racecheck_only" ] || [[ "$name" =~ $racecheck_only ]] || continue
    case "$name" in
      test_cuda_spmv | test_cuda_spgemm | test_cuda_pagerank | test_cuda_mcl | test_cuda_contract | \
      test_cuda_deterministic | test_cuda_device_memory | test_cuda_bfs | test_cuda_row_stats)
        sanitize racecheck "$t" ;;
    esac
  done
fi
# Every GPU test for real, while the sanitizers run.
[ "${run_gpu_tests:-0}" = 1 ] && [ "${NO_GPU_TESTS:-0}" != 1 ] && step gpu-tests ctest --test-dir build-gpu -L gpu --output-on-failure
# The rest of the suite (the CPU tests) on this machine too, meanwhile.
[ -n "$only" ] || [ "$scale_only" = 1 ] || [ "${NO_CPU_TESTS:-0}" = 1 ] || step_bg cpu-tests ctest --test-dir build-gpu --output-on-failure -j8 -LE gpu
wait_steps
# The scale checks, one at a time (each may fill much of the GPU and host).
for s in "${scales[@]}"; do
  read -r n d <<<"$s"
  step "scale-$n-$d" build-gpu/graphrun-scale-check --vertices "$n" --degree "$d" --device cuda \
    ${SCALE_HOST_MEMORY_GIB:+--host-memory "$SCALE_HOST_MEMORY_GIB"}
  { echo "## graphrun-scale-check --vertices $n --degree $d --device cuda"; echo
    cat "$logs/scale-$n-$d.log"; echo; } >>"$out/scale.md"
  cat "$logs/scale-$n-$d.log"
done
if [ -n "$bench" ]; then
  step bench bash -c "$bench"
  cp "$logs/bench.log" "$out/bench.md"
  cat "$out/bench.md"
fi
cp build-gpu/Testing/Temporary/LastTest.log "$logs/ctest-last.log" 2>/dev/null

{
  echo "| step | result | time |"
  echo "| --- | --- | --- |"
  for s in "${summary[@]}"; do
    IFS='|' read -r n r t <<<"$s"
    echo "| $n | $r | $t |"
  done
} >"$out/summary.md"
tar czf "$out/gpu-check-logs.tar.gz" -C "$logs" . && rm -rf "$logs"
echo
cat "$out/summary.md"
grep -q FAIL "$out/summary.md" && exit 1
exit 0
