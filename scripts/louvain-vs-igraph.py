#!/usr/bin/env python3
"""graphrun's Louvain beside igraph's community_multilevel, side by side in one run.

For every graph FILE (SNAP edge list or Matrix Market, plain or .gz): the graph
is read once by Python (undirected, weights summed both ways, self loops
dropped: graphrun's view) and once by `graphrun convert` into a .grb cache; then

    igraph.Graph.community_multilevel(weights=...)       (one thread: igraph has no parallel Louvain)
    graphrun louvain CACHE --threads T --device D --trials R   (the louvain time from its summary)

each R times (igraph: seeds 1..R; graphrun: the seed 1 R times). The table
gives the mean times, the ratio igraph / graphrun of the means and of the
medians (> 1: graphrun is faster), the modularity of each (NetworkX's formula
on the same graph, by igraph's own modularity() for both partitions) and
their difference. Both statistics are shown because a run of a few
milliseconds is at the mercy of its first trial: on a shared VM a second core
idle since the last program can take several milliseconds to wake, which a
mean of few trials carries and a median does not.

Usage: scripts/louvain-vs-igraph.py [--graphrun build/graphrun] [--threads T] [--device cpu|cuda]
                                    [--gpu-min-entries N] [--reps R] [--abc] FILE...

--abc reads every FILE as ABC text ('NAME NAME [WEIGHT]', as graphrun --abc and
mcl --abc do: protein networks), vertices named by their labels.

--gpu-min-entries is passed to graphrun louvain (with --device cuda: the levels
with fewer entries run on the CPU; 0 puts them all on the GPU).
Needs igraph for Python (Debian's python3-igraph, for /usr/bin/python3).
"""

import argparse
import gzip
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import igraph


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def read_graph(path, abc=False):
    """(input ids in dense order, {(u, v): weight}) with u < v dense ids; with
    abc the ids are the labels as they are written."""
    edges = {}
    ids = {}
    mtx = ".mtx" in path
    with open_text(path) as f:
        header_done = False
        for line in f:
            if line.startswith("%%"):
                continue
            s = line.strip()
            if not s or s[0] in "#%":
                continue
            fields = s.split()
            if mtx and not header_done and not abc:
                header_done = True
                for i in range(1, int(fields[0]) + 1):
                    ids.setdefault(i, len(ids))
                continue
            u, v = (fields[0], fields[1]) if abc else (int(fields[0]), int(fields[1]))
            w = float(fields[2]) if len(fields) > 2 and not fields[2].startswith("#") else 1.0
            a, b = ids.setdefault(u, len(ids)), ids.setdefault(v, len(ids))
            if a == b:
                continue
            key = (min(a, b), max(a, b))
            edges[key] = edges.get(key, 0.0) + w
    return list(ids.keys()), edges


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--graphrun", default="build/graphrun")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--gpu-min-entries", type=int)
    ap.add_argument("--abc", action="store_true")
    args = ap.parse_args()
    print("| graph | vertices | edges | igraph s | graphrun s | igraph / graphrun (means) |"
          " igraph / graphrun (medians) | Q igraph | Q graphrun | difference |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in args.files:
        try:
            names, edges = read_graph(path, args.abc)
        except ValueError:
            print("| %s | non-numeric ids: skipped | | | | | | | |" % os.path.basename(path))
            continue
        n = len(names)
        g = igraph.Graph(n=n, edges=list(edges.keys()))
        g.es["weight"] = list(edges.values())
        times, qs = [], []
        for seed in range(1, args.reps + 1):
            random.seed(seed)
            t = time.perf_counter()
            parts = g.community_multilevel(weights="weight")
            times.append(time.perf_counter() - t)
            qs.append(g.modularity(parts.membership, weights="weight"))
        with tempfile.TemporaryDirectory() as tmp:
            grb = os.path.join(tmp, "g.grb")
            out = os.path.join(tmp, "c.tsv")
            subprocess.run([args.graphrun, "convert", path, grb, "--quiet"] +
                           (["--abc"] if args.abc else []), check=True)
            p = subprocess.run([args.graphrun, "louvain", grb, "--threads", str(args.threads),
                                "--device", args.device, "--trials", str(args.reps),
                                "--output", out] +
                               ([] if args.gpu_min_entries is None else
                                ["--gpu-min-entries", str(args.gpu_min_entries)]),
                               capture_output=True, text=True, check=True)
            seconds = float(re.search(r"louvain ([0-9.]+) s", p.stderr).group(1))
            # One trial prints no median: then it is the time itself.
            med = re.search(r"median ([0-9.]+) s", p.stderr)
            median_ours = float(med.group(1)) if med else seconds
            # graphrun's communities on igraph's numbering (first appearance in the file).
            membership = [0] * n
            label = {}
            with open(out) as f:
                for line in f:
                    v, c = line.rstrip("\n").rsplit("\t", 1)
                    label[v if args.abc else int(v)] = int(c)
            for i, v in enumerate(names):
                membership[i] = label[v]
            q_ours = g.modularity(membership, weights="weight")
        t_ig = sum(times) / len(times)
        median_ig = statistics.median(times)
        q_ig = sum(qs) / len(qs)
        print("| %s | %d | %d | %.4f | %.4f | %.2f | %.2f | %.4f | %.4f | %+.4f |" % (
            os.path.basename(path), n, len(edges), t_ig, seconds, t_ig / seconds,
            median_ig / median_ours, q_ig, q_ours, q_ours - q_ig), flush=True)
    print()
    print("igraph: mean (and median) over seeds 1..%d (one thread); graphrun: device %s, "
          "%d threads%s, mean (and median) of %d runs; Q: igraph's mean." % (
              args.reps, args.device, args.threads,
              "" if args.gpu_min_entries is None else
              ", --gpu-min-entries %d" % args.gpu_min_entries, args.reps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
