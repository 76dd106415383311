#!/usr/bin/env bash
# The CPU MCL beside the mcl program, whole runs on the same threads:
# `graphrun mcl FILE --abc --threads T` against `mcl FILE --abc -te T`,
# interleaved (mcl, then each graphrun binary, R rounds), wall clock of each
# process, medians. The clusters are compared byte for byte with mcl's
# (graphrun --abc writes mcl's output line for line). Each FILE is first
# decompressed and stripped of comment lines (# or %, which mcl would read as
# vertex names) and of carriage returns into a plain ABC file that both
# programs read.
#
#   scripts/mcl-cpu-vs-mcl.sh [--threads T] [--reps R] [--graphrun BIN]... FILE...
#
# --graphrun may be given more than once (a build before and after a change):
# each gets its own columns. Default: build/graphrun. Writes a Markdown table.
set -uo pipefail
threads=2
reps=3
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --graphrun) bins+=("$2"); shift 2 ;;
    -*) echo "usage: $0 [--threads T] [--reps R] [--graphrun BIN]... FILE..." >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ "$threads" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --threads needs a positive integer, not '$threads'" >&2; exit 2; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "$0: --reps needs a positive integer, not '$reps'" >&2; exit 2; }
[ $# -gt 0 ] || { echo "$0: name at least one graph file" >&2; exit 2; }
for input in "$@"; do [ -f "$input" ] && [ -r "$input" ] || { echo "$0: cannot read $input" >&2; exit 2; }; done
[ ${#bins[@]} -gt 0 ] || bins=(build/graphrun)
command -v mcl >/dev/null || { echo "$0: the mcl program is not installed (Debian: mcl)" >&2; exit 2; }
for b in "${bins[@]}"; do [ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/graphrun-mcl-cpu.XXXXXX")
trap 'rm -rf "$work"' EXIT

wall() {  # wall OUTFILE COMMAND...: seconds of one run, or "fail"
  local t0 t1
  t0=$(date +%s.%N)
  "${@:2}" >/dev/null 2>"$work/err" || { echo fail; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}'
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

header="| graph | mcl -te $threads s"
rule="| --- | ---:"
for b in "${bins[@]}"; do header+=" | $b s | vs mcl | clusters"; rule+=" | ---: | ---: | ---"; done
echo "$header |"
echo "$rule |"
for input in "$@"; do
  f=$work/$(basename "$input" .gz)
  # Carriage returns stripped: SNAP's files end their lines in CR LF, and mcl
  # would read each line's last label with its CR as a vertex of its own.
  gzip -dcf "$input" | tr -d '\r' | grep -v '^[#%]' >"$f"
  # grep's status 1 only says that no line was kept; gzip's failure is a damaged file.
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "$0: cannot decompress $input" >&2; exit 2; }
  [ -s "$f" ] || { echo "$0: $input has no edges (empty, or comments only)" >&2; exit 2; }
  declare -a mt=()
  declare -A gt=()
  for ((r = 0; r < reps; r++)); do
    mt+=("$(wall "$work/m" mcl "$f" --abc -te "$threads" -o "$work/mcl.out")")
    for i in "${!bins[@]}"; do
      gt[$i]+=" $(wall "$work/g" "${bins[$i]}" mcl "$f" --abc --threads "$threads" -q -o "$work/g$i.out")"
    done
  done
  m=$(median "${mt[@]}")
  row="| $(basename "$f") | $m"
  for i in "${!bins[@]}"; do
    # shellcheck disable=SC2086
    g=$(median ${gt[$i]})
    same=differ
    cmp -s "$work/mcl.out" "$work/g$i.out" && same=same
    row+=" | $g | $(awk -v m="$m" -v g="$g" 'BEGIN {printf "%.2f", m / g}')x | $same"
  done
  echo "$row |"
  rm -f "$f"
  unset mt gt
done
