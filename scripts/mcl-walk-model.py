#!/usr/bin/env python3
"""How evenly a block's sub-teams share the walk of one row of MCL's expansion.

A model, not a measurement: the iterand M of MCL on a graph (mcl's defaults,
approximated: loops added, columns made stochastic, expansion M*M, inflation
2, entries below 1e-4 dropped, at most 1,100 kept a column), and for the rows
of M*M that the GPU SpGEMM gives a bitmap (bound >= n / 64; 256 threads up to
a bound of 4,096 and 16,384 products, 1,024 beyond) the steps of the longest
sub-team when each takes every n-th entry of the row (fixed shares) and when
each takes the next entry as it finishes (first come; sub-teams of a whole
warp only, as in the kernel), against an even split of the row's steps. A sub-team is sized as kernels/cuda/spgemm_agent_hash.cuh
sizes it (a power of two up to 32 at or above the row's mean B row), an entry
costs ceil(len / sub) + 2 steps, and B rows past twice the fair share are
deferred to the whole block (at most 32 a row).

  scripts/mcl-walk-model.py GRAPH.txt[.gz] [ITERATIONS...]   (default: 0 1)
"""
import gzip
import heapq
import sys

import numpy as np
import scipy.sparse as sp


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    ids, rows, cols = {}, [], []
    with opener(path, "rt") as f:
        for line in f:
            if line[:1] in "#%":
                continue
            p = line.split()
            if len(p) >= 2:
                rows.append(ids.setdefault(p[0], len(ids)))
                cols.append(ids.setdefault(p[1], len(ids)))
    n = len(ids)
    a = sp.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    a = ((a + a.T) > 0).astype(float) + sp.identity(n)
    m = sp.csc_matrix(a)
    return m.multiply(1 / np.asarray(m.sum(0))).tocsc(), n


def mcl_step(m):
    e = (m @ m).tocsc()
    e.data = e.data**2
    e = e.multiply(1 / np.asarray(e.sum(0))).tocsc()
    e.data[e.data < 1e-4] = 0
    e.eliminate_zeros()
    keep = np.ones(e.nnz, bool)
    for j in np.where(np.diff(e.indptr) > 1100)[0]:
        s = e.data[e.indptr[j]:e.indptr[j + 1]]
        keep[e.indptr[j]:e.indptr[j + 1]] = s >= np.partition(s, -1100)[-1100]
    e.data[~keep] = 0
    e.eliminate_zeros()
    return e.multiply(1 / np.asarray(e.sum(0))).tocsc()


def model(m, n, rows_per_bin=3000):
    lengths = np.diff(m.indptr)
    ip = np.add.reduceat(lengths[m.indices], m.indptr[:-1])
    bitmap = np.where(np.minimum(ip, n) >= n / 64)[0]
    small = (ip[bitmap] <= 16384) & (np.minimum(ip[bitmap], n) <= 4096)
    for team, rows in ((256, bitmap[small]), (1024, bitmap[~small])):
        fixed = first = even = 0.0
        for j in rows[:rows_per_bin]:
            b = lengths[m.indices[m.indptr[j]:m.indptr[j + 1]]]
            sub = 1
            while sub < 32 and sub * len(b) < ip[j]:
                sub *= 2
            n_sub = team // sub
            defer = 2 * max(ip[j] // team, 4) * sub
            deferred = np.where(b > defer)[0][:32]
            steps = np.ceil(b / sub) + 2
            steps[deferred] = 1
            shares = np.zeros(n_sub)
            np.add.at(shares, np.arange(len(b)) % n_sub, steps)
            heap = [0.0] * n_sub
            for s in steps:
                heapq.heappush(heap, heapq.heappop(heap) + s)
            if sub < 32:  # only sub-teams of a whole warp take entries as they finish
                heap = shares
            tail = np.ceil(b[deferred] / team).sum() + (2 if len(deferred) else 0)
            fixed += shares.max() + tail
            first += max(heap) + tail
            even += steps.sum() / n_sub + tail
        if len(rows):
            print(f"  {team} threads, {len(rows)} rows: longest sub-team / even split: "
                  f"fixed shares {fixed / even:.2f}, first come {first / even:.2f}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    m, n = load(sys.argv[1])
    wanted = [int(x) for x in sys.argv[2:]] or [0, 1]
    for it in range(max(wanted) + 1):
        if it in wanted:
            print(f"expansion {it + 1}:")
            model(m, n)
        m = mcl_step(m)


if __name__ == "__main__":
    main()
