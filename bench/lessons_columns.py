#!/usr/bin/env python3
"""Fills a measured column of docs/lessons.md from `coalesce-bench --lesson ID --json` files.

Each cell gets, for the lesson's variants in teaching order (the order of the run's config) at its
first size: % of the same run's device copy; for a parameter sweep, the values at a few telling
points of the swept parameter (offset 0/1/32, stride 1/2/4/8/16/32...); for constant memory the
time per warp-wide access [ns]; for the shared-memory patterns the shared-memory bandwidth.
Re-running replaces the cells, so the page can be refilled from a newer run.

  # on the GPU machine: one JSON per runnable lesson, named <id>.json (docs/lessons.md has the
  # one-liner that tars them for the device tool)
  for id in $(coalesce-bench --lessons | awk '$2 == "yes" {print $1}'); do
    coalesce-bench --lesson $id --json L/$id.json; done
  python3 bench/lessons_columns.py fill H200 L [FOLDER...]   # the first folder with <id>.json wins
  python3 bench/lessons_columns.py table H100 H200                # the rows, for a closing note
  # pool runs of other result files (a sweep run beside the lessons) into one lesson's file:
  python3 bench/lessons_columns.py extract OUT.json --variants gather/global \\
      --param stride=1,2,4,8,32 --size 8192x8192 RESULTS.json [RESULTS.json...]

Standard library only.
"""

import argparse
import json
import math
import os
import re
import sys

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "lessons.md")

# The points of a long sweep a reader needs to see the curve's shape; other values are kept in the
# JSON. Axes not named here are shown whole.
TELLING = {
    "offset": [0, 1, 32],
    "stride": [1, 2, 4, 8, 16, 32],
    "distinct": [0, 1, 32],
    "area": [4, 32],
}


def number(value):
    """A JSON number, or None for the "nan" strings and nulls the results writer uses."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return None if math.isnan(value) else float(value)
    return None


def load(path):
    with open(path, encoding="utf-8") as f:
        record = json.load(f)
    if not str(record.get("schema", "")).startswith("coalesce-results/"):
        raise ValueError(f"{path}: not a coalesce results file")
    return record


def size_of(run):
    return (run["rows"], run["cols"])


def figure(run):
    """The run's figure as the page shows it: a number and its unit ('' for % of copy)."""
    if run.get("status") != "ok":
        return run.get("status", "failed"), ""
    if not run.get("verified", False):
        return "not verified", ""
    if run["op"] == "constant_read":
        ns = number(run.get("ns_per_access"))
        return (f"{ns:.2f}" if ns is not None else "?"), " ns"
    if run["op"].startswith("smem_"):
        return f"{run['gbps'] / 1000:.1f}", " TB/s"
    return f"{run['pct_of_copy']:.1f}", ""


def varying_axes(record):
    """Names of the swept parameters with more than one value, in the config's order."""
    return [a["name"] for a in record["config"].get("sweep", []) if len(a["values"]) > 1]


def telling(name, values):
    keep = TELLING.get(name)
    if not keep:
        return values
    chosen = [v for v in values if v in keep]
    return chosen or values


def variant_order(record):
    """GPU variants in teaching order: the config's list first, then any others as they ran."""
    order = []
    for pattern in record["config"].get("variants", []):
        for run in record["runs"]:
            if run["variant"].startswith(pattern) and run["variant"] not in order and run["gpu"]:
                order.append(run["variant"])
    for run in record["runs"]:
        if run["gpu"] and run["variant"] not in order:
            order.append(run["variant"])
    return order


def labels(variants):
    """Each variant's id without its operation when they all share one, else the whole id."""
    ops = {v.split("/", 1)[0] for v in variants}
    return {v: (v.split("/", 1)[-1] if len(ops) == 1 else v) for v in variants}


def cell(record):
    """The compact text of one lesson's measurement."""
    runs = [r for r in record["runs"] if r.get("gpu", True)]
    if not runs:
        return ""
    sizes = [(s["rows"], s["cols"]) for s in record["config"].get("sizes", [])]
    first = sizes[0] if sizes else size_of(runs[0])
    runs = [r for r in runs if size_of(r) == first]
    axes = varying_axes(record)
    order = variant_order(record)
    label = labels(order)
    parts = []
    for variant in order:
        mine = [r for r in runs if r["variant"] == variant]
        swept = [a for a in axes if all(a in r.get("params", {}) for r in mine)]
        if not swept:
            value, unit = figure(mine[0])
            parts.append(f"{label[variant]} {value}{unit}")
            continue
        # One point per combination of the telling values of the swept axes, in sweep order.
        wanted = {a: telling(a, sorted({r["params"][a] for r in mine},
                                       key=[r["params"][a] for r in mine].index))
                  for a in swept}
        points = []
        unit = ""
        for r in mine:
            if not all(r["params"][a] in wanted[a] for a in swept):
                continue
            value, unit = figure(r)
            key = " ".join(f"{a}={r['params'][a]}" if i == 0 or len(swept) > 1
                           else str(r["params"][a]) for i, a in enumerate(swept))
            points.append((key, value))
        # "stride=1 79.6, 2 61.6": the parameter's name once, at the first point.
        text = ", ".join(f"{k} {v}" if i == 0 or len(swept) > 1 else
                         f"{k.split('=', 1)[-1]} {v}" for i, (k, v) in enumerate(points))
        parts.append(f"{label[variant]}: {text}{unit}")
    prefix = "" if first == (8192, 8192) else f"{first[0]}x{first[1]}: "
    return prefix + "; ".join(parts)


# --- the page --------------------------------------------------------------------------------

ROW = re.compile(r"^\| `([a-z0-9-]+)` \|")


def split_row(line):
    """Cells of a markdown table row (no cell of this page contains a '|')."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def join_row(cells):
    return "|" + "".join(f" {c} |" if c else " |" for c in cells)


def column_index(header_line, column):
    names = split_row(header_line)
    if column not in names:
        raise ValueError(f"no column '{column}' in the table header: {header_line.strip()}")
    return names.index(column)


def rows(lines):
    """(line index, lesson id, header line index) of every lesson row of the page."""
    header = None
    for i, line in enumerate(lines):
        if line.startswith("| id |"):
            header = i
        m = ROW.match(line)
        if m and header is not None:
            yield i, m.group(1), header


def find_json(folders, lesson):
    for folder in folders:
        path = os.path.join(folder, lesson + ".json")
        if os.path.exists(path):
            return path
    return None


def fill(args):
    with open(args.doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    filled, absent = [], []
    for i, lesson, header in rows(lines):
        path = find_json(args.folders, lesson)
        if not path:
            absent.append(lesson)
            continue
        text = cell(load(path)).replace("|", "/")
        cells = split_row(lines[i])
        cells[column_index(lines[header], args.column)] = text
        lines[i] = join_row(cells)
        filled.append(lesson)
    with open(args.doc, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"{args.column}: {len(filled)} rows filled"
          + (f"; no JSON for {', '.join(absent)}" if absent else ""))
    return 0


def table(args):
    with open(args.doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    columns = args.columns or ["H100", "H200"]
    print("| lesson | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for i, lesson, header in rows(lines):
        cells = split_row(lines[i])
        picked = [cells[column_index(lines[header], c)] for c in columns]
        print(f"| `{lesson}` | " + " | ".join(picked) + " |")
    return 0


def parse_param(text):
    name, _, values = text.partition("=")
    if not name or not values:
        raise argparse.ArgumentTypeError(f"expected NAME=V1,V2,...: {text}")
    return name, [int(v) for v in values.split(",")]


def extract(args):
    variants = args.variants.split(",")
    params = dict(args.param or [])
    size = tuple(int(x) for x in args.size.split("x")) if args.size else None
    records = [load(p) for p in args.results]
    picked = []
    for variant in variants:
        for record in records:
            for run in record["runs"]:
                if run["variant"] != variant or (size and size_of(run) != size):
                    continue
                p = run.get("params", {})
                if all(name not in p or p[name] in values for name, values in params.items()):
                    picked.append(run)
    if not picked:
        print("extract: no run matches", file=sys.stderr)
        return 1
    first = size or size_of(picked[0])
    out = {
        "schema": records[0]["schema"],
        "started_at": records[0].get("started_at", ""),
        "cancelled": False,
        "device": records[0]["device"],
        "config": {
            "variants": variants,
            "sizes": [{"rows": first[0], "cols": first[1]}],
            "sweep": [{"name": n, "values": v} for n, v in params.items()],
            "assembled_from": [os.path.basename(p) for p in args.results],
        },
        "runs": picked,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
    print(f"{args.out}: {len(picked)} runs")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--doc", default=DOC, help="the page (default: docs/lessons.md)")
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("fill", help="fill COLUMN from FOLDER/<id>.json")
    p.add_argument("column", help="the column's header, e.g. H100 or H200")
    p.add_argument("folders", nargs="+", help="folders of <id>.json; the first that has one wins")
    p.set_defaults(run=fill)
    p = sub.add_parser("table", help="print every lesson's row of these columns as a table")
    p.add_argument("columns", nargs="*", help="columns (default: H100 H200)")
    p.set_defaults(run=table)
    p = sub.add_parser("extract", help="pool matching runs of result files into one lesson file")
    p.add_argument("out")
    p.add_argument("results", nargs="+")
    p.add_argument("--variants", required=True, help="ids in teaching order, comma-separated")
    p.add_argument("--param", action="append", type=parse_param, help="NAME=V1,V2: keep these")
    p.add_argument("--size", help="ROWSxCOLS: only runs at this size")
    p.set_defaults(run=extract)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (OSError, ValueError, KeyError) as e:
        print(f"lessons_columns.py: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
