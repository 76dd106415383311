#!/usr/bin/env bash
# Build graphrun with the CUDA backend on a machine with an NVIDIA GPU and run
# every test there: the GPU tests for real (they skip only where no GPU is
# present), the small GPU cases again under compute-sanitizer, and the CPU
# suite. Each step prints a result line as it ends; the logs are kept in
# $OUT/logs and packed into $OUT/gpu-check-logs.tar.gz; a summary table is
# printed last and saved as $OUT/summary.md.
#
#   scripts/gpu-check.sh [--arch 90] [--no-sanitizer] [--only REGEX] [--bench CMD]
#
#   --only REGEX   build and run only the test executables whose names match
#                  (e.g. '^test_cuda_spmv$'), skipping the full CPU suite
#   --bench CMD    afterwards run CMD (e.g. 'build-gpu/graphrun bench spmv --suite ...'),
#                  its output saved as $OUT/bench.md
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
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --no-sanitizer) sanitize=0; shift ;;
    --only) only=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    *) echo "usage: $0 [--arch SM] [--no-sanitizer] [--only REGEX] [--bench CMD]" >&2; exit 2 ;;
  esac
done
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
if [ -n "$only" ]; then
  # The test executables' targets (not the build tool's internal rule names).
  targets=$(cmake --build build-gpu --target help 2>/dev/null |
            sed -E 's/^\.\.\. //; s/:.*//' | grep -E '^[A-Za-z0-9_]*test[A-Za-z0-9_]*$' |
            grep -v '^cmake_' | sort -u | grep -E "$only")
  # shellcheck disable=SC2086
  step build cmake --build build-gpu -j"$(nproc)" --target graphrun_cli $targets
  for t in $(find build-gpu/tests -type f -executable -name '*test*' | sort); do
    [[ "$(basename "$t")" =~ $only ]] && step "run-$(basename "$t")" "$t"
  done
else
  step build cmake --build build-gpu -j"$(nproc)"
  step gpu-tests ctest --test-dir build-gpu -L gpu --output-on-failure
fi
if [ "$sanitize" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # Small cases only (the *Large* ones are 10-100x slower under the tools),
  # the runs side by side: memcheck on every GPU test binary; racecheck on
  # those whose kernels share memory between threads (SpMV tiles and carries,
  # SpGEMM hash tables, PageRank's block reductions, MCL's segmented sort). Each run is capped at
  # SANITIZER_LIMIT seconds; a cap reached reads FAIL (124).
  san_limit=${SANITIZER_LIMIT:-300}
  for t in build-gpu/tests/cuda/test_*; do
    [ -x "$t" ] || continue
    [ -z "$only" ] || [[ "$(basename "$t")" =~ $only ]] || continue
    step_bg "memcheck-$(basename "$t")" timeout "$san_limit" compute-sanitizer \
      --tool memcheck --error-exitcode 1 --leak-check full "$t" \
      --gtest_filter='-*Large*:*TooLarge*'
    case "$(basename "$t")" in
      test_cuda_spmv | test_cuda_spgemm | test_cuda_pagerank | test_cuda_mcl | test_cuda_contract)
        step_bg "racecheck-$(basename "$t")" timeout "$san_limit" compute-sanitizer \
          --tool racecheck --error-exitcode 1 "$t" --gtest_filter='-*Large*:*TooLarge*' ;;
    esac
  done
fi
# The rest of the suite (the CPU tests) on this machine too, meanwhile.
[ -n "$only" ] || step_bg cpu-tests ctest --test-dir build-gpu --output-on-failure -j8 -LE gpu
wait_steps
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
