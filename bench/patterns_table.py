#!/usr/bin/env python3
"""Compact tables of coalesce-bench access-pattern sweeps (bench/patterns.sh), one per variant.

For every run: its parameters, GB/s of useful bytes, % of the same process's device-to-device
copy, the sector model's load/store sectors per warp request and predicted efficiency (useful
bytes / bytes the sectors move), and measured/model = (% of copy / 100) / efficiency: 1.00 means
the run moved data exactly as fast as the copy would move the sectors the model counts; above 1
the caches served some sectors again, below 1 something beyond sector counts costs.

Usage: patterns_table.py RESULTS.json [...]. Standard library only.
"""
import json
import sys


def params_text(params):
    return " ".join(f"{k}={v}" for k, v in sorted(params.items())) or "-"


def number(value):
    """A results-file number; None for absent ones and the "nan" strings JSON cannot spell."""
    if value is None or isinstance(value, str):
        return None
    return float(value)


def fmt(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"


def rows_of(paths):
    device, rows = None, []
    for path in paths:
        with open(path) as f:
            j = json.load(f)
        device = device or j.get("device", {}).get("name")
        rows.extend(j.get("runs", []))
    return device, rows


def print_table(variant, runs):
    size = f'{runs[0]["rows"]}x{runs[0]["cols"]}'
    print(f"\n{variant} ({size}, copy {runs[0]['copy_gbps']:.0f} GB/s)")
    header = ["params", "GB/s", "% copy", "ld sect", "st sect", "model eff", "meas/model", "result"]
    table = [header]
    for r in runs:
        ok = r["status"] == "ok" and r["verified"]
        eff = number(r.get("model_efficiency"))
        pct = r["pct_of_copy"] if ok else None
        ratio = pct / 100.0 / eff if ok and eff else None
        table.append([
            params_text(r.get("params", {})),
            fmt(r["gbps"] if ok else None, 1),
            fmt(pct, 1),
            fmt(number(r.get("model_load_sectors")), 1),
            fmt(number(r.get("model_store_sectors")), 1),
            fmt(100.0 * eff if eff is not None else None, 1) + ("%" if eff is not None else ""),
            fmt(ratio, 2),
            "verified" if ok else f'{r["status"]}: {r.get("error", "")}'[:60],
        ])
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for n, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1])]
        print("  ".join(cells + [row[-1]]))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    device, rows = rows_of(paths)
    print(f"device: {device}")
    by_variant = {}
    for r in rows:
        by_variant.setdefault(r["variant"], []).append(r)
    failed = 0
    for variant, runs in by_variant.items():
        print_table(variant, runs)
        failed += sum(1 for r in runs if r["status"] != "ok" or not r["verified"])
    print(f"\n{len(rows)} runs, {failed} not verified")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
