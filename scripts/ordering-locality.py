#!/usr/bin/env python3
"""How close together an SpMV's gathers lie under each vertex ordering.

    scripts/ordering-locality.py [--graphrun build/graphrun] [--orderings none,dbg,rcm,rabbit]
                                 [--threads N] GRAPH.grb ...

For every ordering, `graphrun convert GRAPH ORDERED.grb --reorder ORDER` stores
the ordering in a temporary cache; this script then renumbers the matrix by it
and measures, independently of the machine it runs on:

  sectors/32  the distinct 32-byte sectors of a float x that 32 consecutive
              entries of the renumbered CSR gather: what one warp-wide load of
              a GPU SpMV that walks the entries in order (merge-path, COO,
              CSR warp-per-row) fetches. 32 is no locality at all; 4 is the
              least (8 floats a sector).
  lines/row   the distinct 64-byte lines of x a row gathers, over its length:
              a CPU row's share of cache lines (1/16 at best).
  span        the median over rows of (largest - smallest column) / n.

These are what an ordering changes; whether the time follows depends on the
caches (docs/performance.md). The orderings' own costs come from convert's
summary. Needs numpy.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

import numpy as np


def read_grb(path):
    """row_ptr, col_idx and the stored ordering (or None) of a .grb cache."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:8] != b"GRAPHRUN":
            sys.exit(f"{path}: not a graphrun cache")
        version, flags, n, nnz, n_ids = struct.unpack_from("<IIqqQ", head, 8)
        row_ptr = np.fromfile(f, dtype=np.int64, count=n + 1)
        col = np.fromfile(f, dtype=np.int32, count=nnz)
        if not flags & 4:  # values
            f.seek(8 * nnz, os.SEEK_CUR)
        f.seek(8 * n_ids, os.SEEK_CUR)
        order = np.fromfile(f, dtype=np.int32, count=n) if flags & 16 else None
    return row_ptr, col, order


def renumbered(row_ptr, col, order):
    """B = P A Pᵀ with columns sorted within rows, as permute() builds it."""
    n = len(row_ptr) - 1
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    lengths = np.diff(row_ptr)[order]
    new_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_ptr[1:])
    # The entries of old row order[i], in new row i: gather them by an index.
    starts = row_ptr[:-1][order]
    row_of = np.repeat(np.arange(n, dtype=np.int64), lengths)
    offset = np.arange(new_ptr[-1], dtype=np.int64) - new_ptr[:-1][row_of]
    new_col = pos[col[starts[row_of] + offset]]
    # Sort within rows: by (row, column).
    key = row_of * n + new_col
    key.sort()
    return new_ptr, (key % n).astype(np.int64), row_of


def measures(row_ptr, col, row_of):
    n = len(row_ptr) - 1
    nnz = len(col)
    if nnz == 0:
        return 0.0, 0.0, 0.0
    chunk = np.arange(nnz, dtype=np.int64) // 32
    sectors = np.unique(chunk * (n // 8 + 1) + col // 8).size
    per_chunk = sectors / (chunk[-1] + 1)
    lines = np.unique(row_of * (n // 16 + 1) + col // 16).size
    lengths = np.diff(row_ptr)
    rows = lengths > 0
    lo = col[row_ptr[:-1][rows]]
    hi = col[row_ptr[1:][rows] - 1]
    span = float(np.median((hi - lo) / max(n, 1)))
    return per_chunk, lines / nnz, span


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("graphs", nargs="+")
    p.add_argument("--graphrun", default="build/graphrun")
    p.add_argument("--orderings", default="none,dbg,rcm,rabbit")
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args()
    print("| graph | ordering | seconds to order | sectors/32 | lines/row (per entry) | span |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for g in a.graphs:
            row_ptr, col, _ = read_grb(g)
            n = len(row_ptr) - 1
            for o in a.orderings.split(","):
                seconds = "-"
                if o == "none":
                    order = np.arange(n, dtype=np.int64)
                else:
                    out = os.path.join(tmp, "ordered.grb")
                    r = subprocess.run([a.graphrun, "convert", g, out, "--reorder", o,
                                        "--threads", str(a.threads)],
                                       capture_output=True, text=True)
                    if r.returncode != 0:
                        sys.exit(r.stderr)
                    m = re.search(r"ordering \w+ ([\d.]+) s", r.stderr)
                    seconds = m.group(1) if m else "?"
                    order = read_grb(out)[2].astype(np.int64)
                new_ptr, new_col, row_of = renumbered(row_ptr, col, order)
                s, l, span = measures(new_ptr, new_col, row_of)
                print(f"| {os.path.basename(g)} | {o} | {seconds} | {s:.2f} | {l:.3f} | {span:.4f} |",
                      flush=True)


if __name__ == "__main__":
    main()
