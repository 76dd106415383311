#!/usr/bin/env python3
"""Check graphrun's PageRank, or its triangles, against NetworkX on real graphs.

For every graph file in a datasets folder (default: the repository's datasets/;
pass --datasets for a larger collection:
SNAP edge lists *.txt.gz and Matrix Market *.mtx.gz), build the graph in
NetworkX with graphrun's loading semantics, run nx.pagerank(alpha=0.85,
tol=1e-12, max_iter=1000), run

    graphrun pagerank FILE [--undirected] --output OUT --tol 1e-12 --max-iter 1000 --quiet

and require the L1 distance of the two rank vectors to be <= 1e-6. Prints a
table (graph, mode, n, edges, L1, seconds) and exits 1 if any graph fails.

Loading semantics (graphrun's, mirrored here):
  - edge lists: '#' and '%' comment lines; "src dst [weight]" separated by
    blanks; vertices are the ids that occur; weighted iff the first data line
    has a third column. A DiGraph; repeated edges: weights summed (weighted)
    or collapsed to one (unweighted).
  - --undirected: every edge u->v also yields v->u (a self loop stays one
    entry), then duplicates as above: a symmetric DiGraph.
  - Matrix Market coordinate: vertices 1..n (isolated ones included); pattern
    = unweighted, real/integer = weighted; a symmetric file is undirected (its
    off-diagonal entries mirrored). Read with scipy.io.mmread when scipy is
    installed, else with the small reader below; complex, hermitian,
    skew-symmetric and non-square files are skipped.
  - graphs with inf/nan weights (graphrun refuses them) and graphs with negative weights (several SuiteSparse matrices) have no
    PageRank (NetworkX does not converge on them) and are skipped;
  - files with non-numeric vertex names, and side files (*.nodes.*,
    *groundtruth*, *complexes*), are skipped.

nx.pagerank needs scipy; without it the script falls back to NetworkX's own
pure-Python power iteration (pagerank_alg._pagerank_python), same maths.
NetworkX stops when the L1 change is < n * tol; graphrun when it is < tol.

With --algorithm triangles, the graph is taken as undirected (nx.Graph of the
same edges; NetworkX ignores self loops, as graphrun does), and

    graphrun triangles FILE --output OUT --quiet

must give nx.triangles exactly and nx.clustering within 1e-12 for every vertex.
With --algorithm louvain, `graphrun louvain FILE --output OUT --quiet` must give
communities whose modularity (nx.community.modularity on the undirected graph,
weights summed both ways, loops dropped: graphrun's view) is within 0.005 of the
best of the reference's over three seeds: igraph's community_multilevel where
python3-igraph is installed, else NetworkX's louvain_communities.
With --algorithm bc, `graphrun bc FILE [--undirected] --output OUT --quiet` must
give nx.betweenness_centrality (exact, normalized) within 1e-9 for every vertex,
directed and undirected as --mode says.

Usage: scripts/check_networkx.py PATH/TO/graphrun [--algorithm pagerank|triangles|bc|louvain]
           [--datasets DIR]
           [--only NAME ...] [--max-edges M] [--mode directed|undirected|both]
           [--jobs J] [--python-only]
"""

import argparse
import gzip
import math
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

import networkx as nx

TOL = 1e-12
MAX_ITER = 1000
LIMIT = 1e-6


def nx_pagerank(g):
    try:
        import scipy  # noqa: F401  (nx.pagerank needs it)
    except ImportError:
        from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

        return _pagerank_python(g, alpha=0.85, tol=TOL, max_iter=MAX_ITER)
    return nx.pagerank(g, alpha=0.85, tol=TOL, max_iter=MAX_ITER)


class Skip(Exception):
    pass


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def add(g, u, v, w, weighted):
    if weighted:
        if g.has_edge(u, v):
            g[u][v]["weight"] += w
        else:
            g.add_edge(u, v, weight=w)
    else:
        g.add_edge(u, v)


def read_edge_list(path, undirected):
    g = nx.DiGraph()
    weighted = None
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] in "#%":
                continue
            fields = s.split()
            if weighted is None:
                weighted = len(fields) >= 3
                try:
                    int(fields[0]), int(fields[1])
                except (ValueError, IndexError):
                    raise Skip("non-numeric vertex ids")
            u, v = int(fields[0]), int(fields[1])
            w = float(fields[2]) if weighted else 1.0
            add(g, u, v, w, weighted)
            if undirected and u != v:
                add(g, v, u, w, weighted)
    return g, bool(weighted)


def read_mtx_entries(path):
    """(n_rows, n_cols, field, symmetry, [(i, j, value)]) with 1-based i, j."""
    try:
        import scipy.io

        m = scipy.io.mmread(path).tocoo()
        with open_text(path) as f:
            banner = f.readline().split()
        field, symmetry = banner[3].lower(), banner[4].lower()
        entries = [(int(i) + 1, int(j) + 1, float(x)) for i, j, x in zip(m.row, m.col, m.data)]
        if symmetry == "symmetric":  # mmread expanded it; keep the stored triangle
            entries = [(i, j, x) for i, j, x in entries if i >= j]
        return m.shape[0], m.shape[1], field, symmetry, entries
    except ImportError:
        pass
    with open_text(path) as f:
        banner = f.readline().split()
        if len(banner) < 5 or banner[0] != "%%MatrixMarket" or banner[2].lower() != "coordinate":
            raise Skip("not a Matrix Market coordinate file")
        field, symmetry = banner[3].lower(), banner[4].lower()
        size = None
        entries = []
        for line in f:
            s = line.strip()
            if not s or s[0] == "%":
                continue
            fields = s.split()
            if size is None:
                size = (int(fields[0]), int(fields[1]))
                continue
            x = 1.0 if field == "pattern" else float(fields[2])
            entries.append((int(fields[0]), int(fields[1]), x))
    return size[0], size[1], field, symmetry, entries


def read_mtx(path, undirected):
    rows, cols, field, symmetry, entries = read_mtx_entries(path)
    if field not in ("real", "integer", "pattern", "double"):
        raise Skip(field + " entries")
    if symmetry not in ("general", "symmetric"):
        raise Skip(symmetry + " matrix")
    if rows != cols:
        raise Skip("not square")
    weighted = field != "pattern"
    g = nx.DiGraph()
    g.add_nodes_from(range(1, rows + 1))
    mirror = undirected or symmetry == "symmetric"
    for i, j, x in entries:
        add(g, i, j, x, weighted)
        if mirror and i != j:
            add(g, j, i, x, weighted)
    return g, weighted


def read_graph(path, undirected):
    """(DiGraph, weighted) of a Matrix Market or edge-list file."""
    if path.endswith(".mtx.gz"):
        return read_mtx(path, undirected)
    return read_edge_list(path, undirected)


def run_graphrun(cmd, row):
    """Runs cmd, timing it in row; False (row marked FAIL) when it fails."""
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    row["graphrun_s"] = time.time() - t
    if p.returncode != 0:
        row["status"] = "FAIL"
        row["why"] = "graphrun exit %d: %s" % (p.returncode, p.stderr.strip()[-300:])
        return False
    return True


def graph_files(root):
    for d in sorted(os.listdir(root)):
        folder = os.path.join(root, d)
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            if not (f.endswith(".txt.gz") or f.endswith(".mtx.gz")):
                continue
            if any(k in f for k in (".nodes.", "groundtruth", "complexes")):
                continue
            yield d, os.path.join(folder, f)


def read_graphrun_ranks(path):
    ranks = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or line[0] in "#%":
                continue
            try:
                ranks[int(fields[0])] = float(fields[1])
            except ValueError:
                continue  # a header line
    return ranks


def mtx_is_symmetric(path):
    with open_text(path) as f:
        banner = f.readline().split()
    return len(banner) >= 5 and banner[4].lower() == "symmetric"


def check(task):
    """One (graph, mode) check; returns a result row (dict)."""
    name, path, undirected, exe = task
    row = {"graph": name, "file": os.path.basename(path),
           "mode": "undirected" if undirected else "directed"}
    t0 = time.time()
    try:
        g, weighted = read_graph(path, undirected)
        row.update(n=g.number_of_nodes(), edges=g.number_of_edges(), weighted=weighted)
        if weighted and not all(math.isfinite(w) for _, _, w in g.edges(data="weight")):
            raise Skip("non-finite weights: graphrun rejects the file")
        if weighted and any(w < 0 for _, _, w in g.edges(data="weight")):
            raise Skip("negative weights: not a Markov chain")
        try:
            expect = nx_pagerank(g)
        except nx.PowerIterationFailedConvergence:
            raise Skip("NetworkX did not converge")
        row["nx_s"] = time.time() - t0
        if exe is None:
            row["status"] = "nx only"
            return row
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "ranks.tsv")
            cmd = [exe, "pagerank", path, "--output", out, "--tol", repr(TOL),
                   "--max-iter", str(MAX_ITER), "--quiet"]
            if undirected:
                cmd.insert(3, "--undirected")
            if not run_graphrun(cmd, row):
                return row
            got = read_graphrun_ranks(out)
        if set(got) != set(expect):
            row["status"] = "FAIL"
            row["why"] = "vertex sets differ (%d vs %d)" % (len(got), len(expect))
            return row
        l1 = math.fsum(abs(got[v] - expect[v]) for v in expect)
        row["l1"] = l1
        row["status"] = "ok" if l1 <= LIMIT else "FAIL"
    except Skip as e:
        row["status"] = "skip"
        row["why"] = str(e)
    except Exception as e:  # report and go on with the other graphs
        row["status"] = "FAIL"
        row["why"] = "%s: %s" % (type(e).__name__, e)
    return row


def check_triangles(task):
    """One graph's triangles and clustering; returns a result row (dict)."""
    name, path, _, exe = task
    row = {"graph": name, "file": os.path.basename(path), "mode": "undirected"}
    t0 = time.time()
    try:
        d, weighted = read_graph(path, False)
        if weighted and not all(math.isfinite(w) for _, _, w in d.edges(data="weight")):
            raise Skip("non-finite weights: graphrun rejects the file")
        g = nx.Graph(d)
        row.update(n=g.number_of_nodes(), edges=g.number_of_edges(), weighted=weighted)
        want_t = nx.triangles(g)
        want_c = nx.clustering(g)
        row["nx_s"] = time.time() - t0
        if exe is None:
            row["status"] = "nx only"
            return row
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "triangles.tsv")
            if not run_graphrun([exe, "triangles", path, "--output", out, "--quiet"], row):
                return row
            got_t, got_c = {}, {}
            with open(out) as f:
                for line in f:
                    fields = line.split()
                    got_t[int(fields[0])] = int(fields[1])
                    got_c[int(fields[0])] = float(fields[2])
        if set(got_t) != set(want_t):
            row["status"] = "FAIL"
            row["why"] = "vertex sets differ (%d vs %d)" % (len(got_t), len(want_t))
            return row
        wrong = [v for v in want_t if got_t[v] != want_t[v]]
        worst = max((abs(got_c[v] - want_c[v]) for v in want_c), default=0.0)
        row["l1"] = worst
        if wrong:
            row["status"] = "FAIL"
            row["why"] = "%d vertices' triangles differ, e.g. %d: %d vs %d" % (
                len(wrong), wrong[0], got_t[wrong[0]], want_t[wrong[0]])
        else:
            row["status"] = "ok" if worst <= 1e-12 else "FAIL"
    except Skip as e:
        row["status"] = "skip"
        row["why"] = str(e)
    except Exception as e:  # report and go on with the other graphs
        row["status"] = "FAIL"
        row["why"] = "%s: %s" % (type(e).__name__, e)
    return row


def check_bc(task):
    """One (graph, mode) betweenness check; returns a result row (dict)."""
    name, path, undirected, exe = task
    row = {"graph": name, "file": os.path.basename(path),
           "mode": "undirected" if undirected else "directed"}
    t0 = time.time()
    try:
        g, weighted = read_graph(path, undirected)
        if weighted and not all(math.isfinite(w) for _, _, w in g.edges(data="weight")):
            raise Skip("non-finite weights: graphrun rejects the file")
        row.update(n=g.number_of_nodes(), edges=g.number_of_edges(), weighted=weighted)
        # A symmetric DiGraph has the paths of the undirected graph; NetworkX
        # scales an undirected Graph's sums as graphrun scales them.
        expect = nx.betweenness_centrality(nx.Graph(g) if undirected else g)
        row["nx_s"] = time.time() - t0
        if exe is None:
            row["status"] = "nx only"
            return row
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "bc.tsv")
            cmd = [exe, "bc", path, "--output", out, "--quiet"]
            if undirected:
                cmd.insert(3, "--undirected")
            if not run_graphrun(cmd, row):
                return row
            got = read_graphrun_ranks(out)
        if set(got) != set(expect):
            row["status"] = "FAIL"
            row["why"] = "vertex sets differ (%d vs %d)" % (len(got), len(expect))
            return row
        worst = max((abs(got[v] - expect[v]) for v in expect), default=0.0)
        row["l1"] = worst
        row["status"] = "ok" if worst <= 1e-9 else "FAIL"
    except Skip as e:
        row["status"] = "skip"
        row["why"] = str(e)
    except Exception as e:  # report and go on with the other graphs
        row["status"] = "FAIL"
        row["why"] = "%s: %s" % (type(e).__name__, e)
    return row


LOUVAIN_SLACK = 0.005


def louvain_reference(g):
    """(name, best modularity over seeds 1..3) of igraph or NetworkX."""
    try:
        import igraph
        import random

        nodes = list(g.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        ig = igraph.Graph(n=len(nodes), edges=[(index[u], index[v]) for u, v in g.edges()])
        ig.es["weight"] = [w for _, _, w in g.edges(data="weight", default=1.0)]
        best = -1.0
        for seed in (1, 2, 3):
            random.seed(seed)
            parts = ig.community_multilevel(weights="weight")
            best = max(best, ig.modularity(parts.membership, weights="weight"))
        return "igraph", best
    except ImportError:
        best = max(nx.community.modularity(g, nx.community.louvain_communities(g, seed=s))
                   for s in (1, 2, 3))
        return "networkx", best


def check_louvain(task):
    """One graph's Louvain communities; returns a result row (dict)."""
    name, path, _, exe = task
    row = {"graph": name, "file": os.path.basename(path), "mode": "undirected"}
    t0 = time.time()
    try:
        d, weighted = read_graph(path, False)
        if weighted and not all(math.isfinite(w) and w >= 0 for _, _, w in d.edges(data="weight")):
            raise Skip("negative or non-finite weights: graphrun rejects the file")
        g = nx.Graph()
        g.add_nodes_from(d.nodes())
        for u, v, w in d.edges(data="weight", default=1.0):
            if u == v:
                continue
            if g.has_edge(u, v):
                g[u][v]["weight"] += w
            else:
                g.add_edge(u, v, weight=w)
        row.update(n=g.number_of_nodes(), edges=g.number_of_edges(), weighted=weighted)
        if g.number_of_edges() == 0:
            raise Skip("no edges")
        ref_name, ref = louvain_reference(g)
        row["nx_s"] = time.time() - t0
        if exe is None:
            row["status"] = "nx only"
            return row
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "communities.tsv")
            if not run_graphrun([exe, "louvain", path, "--output", out, "--quiet"], row):
                return row
            parts = {}
            with open(out) as f:
                for line in f:
                    v, c = line.split()
                    parts.setdefault(int(c), set()).add(int(v))
        q = nx.community.modularity(g, list(parts.values()))
        row["l1"] = ref - q  # how far below the reference
        row["why"] = "Q %.4f, %s %.4f" % (q, ref_name, ref)
        row["status"] = "ok" if q >= ref - LOUVAIN_SLACK else "FAIL"
    except Skip as e:
        row["status"] = "skip"
        row["why"] = str(e)
    except Exception as e:  # report and go on with the other graphs
        row["status"] = "FAIL"
        row["why"] = "%s: %s" % (type(e).__name__, e)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphrun", nargs="?", help="path to the graphrun executable")
    ap.add_argument("--algorithm", choices=("pagerank", "triangles", "bc", "louvain"),
                    default="pagerank")
    ap.add_argument("--datasets", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets"))
    ap.add_argument("--only", nargs="*", help="dataset folder names to check")
    ap.add_argument("--max-edges", type=int, default=0,
                    help="skip files larger than this many data lines (0 = no limit)")
    ap.add_argument("--mode", choices=("directed", "undirected", "both"), default="both")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--python-only", action="store_true",
                    help="only load and run NetworkX (checks this script without graphrun)")
    args = ap.parse_args()
    if not args.python_only and not args.graphrun:
        ap.error("the graphrun executable is required (or --python-only)")
    exe = None if args.python_only else os.path.abspath(args.graphrun)
    if not os.path.isdir(args.datasets):
        print("no datasets folder %s" % args.datasets, file=sys.stderr)
        return 1

    tasks = []
    for name, path in graph_files(args.datasets):
        if args.only and name not in args.only:
            continue
        if args.max_edges:
            with open_text(path) as f:
                lines = sum(1 for _ in f)
            if lines > args.max_edges:
                continue
        modes = {"directed": [False], "undirected": [True], "both": [False, True]}[args.mode]
        if args.algorithm in ("triangles", "louvain"):
            modes = [False]  # direction is ignored: one graph either way
        if path.endswith(".mtx.gz") and mtx_is_symmetric(path):
            modes = [True] if args.mode != "directed" else []  # one graph either way
        for undirected in modes:
            tasks.append((name, path, undirected, exe))

    header = "%-22s %-30s %-10s %8s %9s %3s %10s %7s %7s  %s" % (
        "graph", "file", "mode", "n", "edges", "w", "L1", "nx_s", "gr_s", "status")
    print(header)
    print("-" * len(header))
    failed = 0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        run = {"pagerank": check, "triangles": check_triangles, "bc": check_bc,
               "louvain": check_louvain}[args.algorithm]
        for r in pool.map(run, tasks):
            l1 = "%.2e" % r["l1"] if "l1" in r else "-"
            print("%-22s %-30s %-10s %8s %9s %3s %10s %7s %7s  %s%s" % (
                r["graph"], r["file"][:30], r["mode"], r.get("n", "-"), r.get("edges", "-"),
                "w" if r.get("weighted") else "", l1,
                "%.1f" % r["nx_s"] if "nx_s" in r else "-",
                "%.2f" % r["graphrun_s"] if "graphrun_s" in r else "-",
                r["status"], " (" + r["why"] + ")" if "why" in r else ""), flush=True)
            failed += r["status"] == "FAIL"
    checked = len(tasks)
    if args.algorithm == "pagerank":
        print("%d checks, %d failed (limit L1 <= %g)" % (checked, failed, LIMIT))
    elif args.algorithm == "louvain":
        print("%d checks, %d failed (the L1 column is the reference's modularity less "
              "graphrun's; limit %g)" % (checked, failed, LOUVAIN_SLACK))
    elif args.algorithm == "bc":
        print("%d checks, %d failed (the L1 column is the largest difference; limit 1e-9)"
              % (checked, failed))
    else:
        print("%d checks, %d failed (triangles equal, clustering within 1e-12; "
              "the L1 column is the largest clustering difference)" % (checked, failed))
    if checked == 0:
        print("nothing was checked: no usable graph in %s" % args.datasets, file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
