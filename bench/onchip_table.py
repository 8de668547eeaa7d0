#!/usr/bin/env python3
"""Compact tables of the on-chip experiments from coalesce-bench JSON files (bench/onchip.sh).

Usage: onchip_table.py FAMILY RESULTS.json
FAMILY: smem (GB/s of shared-memory traffic beside the predicted bank-conflict degree), constant
(ns per warp-wide load per SM beside the constant cache's predicted serialization), sampling
(random_sample: GB/s per area and memory space), resample and u8 (GB/s per variant)."""
import json
import math
import sys


def number(v):
    return float(v) if isinstance(v, (int, float)) else float("nan")


def text(v, digits):
    return "-" if math.isnan(v) else f"{v:.{digits}f}"


def way(v):
    return "-" if math.isnan(v) else f"{v:.0f}-way"


def outcome(r):
    if r["status"] == "ok" and r["verified"]:
        return "verified"
    return f'{r["status"].upper()}: {r["error"]}'[:60]


def print_table(header, rows):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def line(cells):  # text columns (first, last) to the left, numbers to the right
        return "  ".join(str(c).ljust(w) if i in (0, len(cells) - 1) else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def main():
    family, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        record = json.load(f)
    runs = record["runs"]
    print(f'device: {record["device"]["name"]}, {record["device"]["sm_count"]} SMs')
    if family == "smem":
        rows = [[r["variant"], f'32x{r["params"]["tile_rows"]}', r["params"]["repeat"],
                 text(number(r["median_ms"]), 3), text(number(r["gbps"]), 0),
                 way(number(r["model_bank_conflict_degree"])), outcome(r)]
                for r in sorted(runs, key=lambda r: (r["params"]["tile_rows"], r["variant"]))]
        print_table(["pattern", "tile", "repeat", "ms", "shared GB/s", "predicted", "result"], rows)
    elif family == "constant":
        rows = [[r["variant"], r["params"]["distinct"], r["params"]["repeat"],
                 text(number(r["ns_per_access"]), 3),
                 text(number(r["model_constant_serialization"]), 0), outcome(r)]
                for r in sorted(runs, key=lambda r: (r["variant"], r["params"]["distinct"]))]
        print_table(["variant", "distinct", "repeat", "ns/access", "predicted passes", "result"],
                    rows)
    else:
        rows = []
        for r in sorted(runs, key=lambda r: (sorted(r["params"].items()), r["variant"])):
            params = " ".join(f"{k}={v}" for k, v in sorted(r["params"].items()))
            rows.append([r["variant"], f'{r["rows"]}x{r["cols"]}', params or "-",
                         text(number(r["median_ms"]), 3), text(number(r["gbps"]), 0),
                         text(number(r["pct_of_copy"]), 1) + "%",
                         text(number(r["max_abs_error"]), 7), outcome(r)])
        print_table(["variant", "size", "params", "ms", "GB/s", "of copy", "max error", "result"],
                    rows)


if __name__ == "__main__":
    main()
