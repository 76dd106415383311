#!/usr/bin/env bash
# Build graphrun with the CUDA backend on a machine with an NVIDIA GPU and run
# every test there: the GPU tests for real (they skip only where no GPU is
# present), the small GPU cases again under compute-sanitizer, and the CPU
# suite. Logs go to $OUT (default ./gpu-check-out); a summary table is
# printed last.
#
#   scripts/gpu-check.sh [--arch 90] [--no-sanitizer] [--only REGEX] [--bench CMD]
#
#   --only REGEX   build and run only the test executables whose names match
#                  (e.g. 'test_cuda_spmv'), skipping the full CPU suite
#   --bench CMD    afterwards run CMD (e.g. 'build-gpu/graphrun bench spmv --suite ...'),
#                  its output saved as $OUT/bench.log
#
# Without network access, missing build dependencies are unpacked from the
# Debian packages in .deps/ (scripts/fetch-gpu-deps.sh downloads them).
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
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
summary=()
step() {  # step NAME COMMAND...: run, log to $out/NAME.log, record the result
  local name=$1; shift
  local t0=$SECONDS
  if "$@" >"$out/$name.log" 2>&1; then summary+=("$name|pass|$((SECONDS - t0)) s")
  else summary+=("$name|FAIL ($?)|$((SECONDS - t0)) s"); tail -40 "$out/$name.log"; fi
}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

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
fi
# The shared real graphs, where a copy travelled with the tree.
[ -d .bench-data ] && cmake_args+=(-DGRAPHRUN_SHARED_DATASETS="$PWD/.bench-data")
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
step configure cmake -S . -B build-gpu "${gen[@]}" "${cmake_args[@]}"
if [ -n "$only" ]; then
  # The test executables' targets (not the build tool's internal rule names).
  targets=$(cmake --build build-gpu --target help 2>/dev/null |
            sed -E 's/^\.\.\. //; s/:.*//' | grep -E '^[A-Za-z0-9_]*test[A-Za-z0-9_]*$' |
            grep -v '^cmake_' |
            sort -u | grep -E "$only")
  # shellcheck disable=SC2086
  step build cmake --build build-gpu -j"$(nproc)" --target graphrun_cli $targets
  for t in $(find build-gpu/tests -type f -executable -name '*test*' | sort); do
    [[ "$(basename "$t")" =~ $only ]] && step "run-$(basename "$t")" "$t"
  done
else
  step build cmake --build build-gpu -j"$(nproc)"
  step gpu-tests ctest --test-dir build-gpu -L gpu --output-on-failure
  step all-tests ctest --test-dir build-gpu --output-on-failure -j"$(nproc)"
fi
if [ "$sanitize" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # Small cases only: every GPU test binary, memcheck; racecheck on kernels
  # that use shared memory.
  for t in build-gpu/tests/cuda/test_*; do
    [ -x "$t" ] || continue
    [ -z "$only" ] || [[ "$(basename "$t")" =~ $only ]] || continue
    step "memcheck-$(basename "$t")" compute-sanitizer --tool memcheck --error-exitcode 1 \
      --leak-check full "$t" --gtest_filter='-*Large*:*TooLarge*'
    step "racecheck-$(basename "$t")" compute-sanitizer --tool racecheck --error-exitcode 1 \
      "$t" --gtest_filter='-*Large*:*TooLarge*'
  done
fi
if [ -n "$bench" ]; then
  step bench bash -c "$bench"
  cat "$out/bench.log"
fi
cp build-gpu/Testing/Temporary/LastTest.log "$out/ctest-last.log" 2>/dev/null

echo
echo "| step | result | time |"
echo "| --- | --- | --- |"
status=0
for s in "${summary[@]}"; do
  IFS='|' read -r n r t <<<"$s"
  echo "| $n | $r | $t |"
  [ "$r" = pass ] || status=1
done
exit $status
