#!/usr/bin/env python3
"""Where a kernel's instructions go, from Nsight Compute's per-instruction source page.

Input: the CSV of `ncu --section SourceCounters --page source --print-source sass --csv ...`
for one kernel launch (the lines before the header are skipped). Consecutive SASS instructions
that executed equally often are one region (a basic block, or a straight run of them); the
regions are printed largest first with their share of the executed instructions and of the stall
samples, and their most frequent opcodes. A loop shows as a region whose count is a multiple of
the launch's warps: divide by it for the executions per warp.

    python3 bench/ncu_source_regions.py src.csv [--top 25]
"""
import argparse
import csv
import sys
from collections import Counter


def read_rows(path):
    with open(path, newline="") as f:
        lines = f.readlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"Address"')), None)
    if start is None:
        sys.exit(f"{path}: no \"Address\" header: not an ncu --page source --csv file")
    rows = list(csv.reader(lines[start:]))
    # Lines the profiled program prints after the page are not instructions.
    return rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]


def opcode(sass):
    words = sass.split()
    if not words:
        return "?"
    word = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return word.split(".")[0]


def count(row, col):
    value = row[col].replace(",", "")
    return int(value) if value.isdigit() else 0


def regions(header, rows):
    """[first, last, executions, samples] per run of equally executed instructions, largest share
    (length x executions) first."""
    executed = header.index("Instructions Executed")
    samples = header.index("Warp Stall Sampling (All Samples)")
    found = []
    for i, row in enumerate(rows):
        n = count(row, executed)
        if found and found[-1][2] == n:
            found[-1][1] = i
            found[-1][3] += count(row, samples)
        else:
            found.append([i, i, n, count(row, samples)])
    found.sort(key=lambda r: -(r[1] - r[0] + 1) * r[2])
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    header, rows = read_rows(args.csv)
    source = header.index("Source")
    found = regions(header, rows)
    # The regions cover every instruction once: the totals are theirs.
    total = sum((last - first + 1) * n for first, last, n, _ in found) or 1
    total_samples = sum(s for *_, s in found) or 1
    print(f"{len(rows)} SASS instructions, {total} executed (warp level), "
          f"{total_samples} stall samples")
    print("| SASS lines | length | executions | % of executed | % of samples | opcodes |")
    print("|---|---:|---:|---:|---:|---|")
    for first, last, n, s in found[: args.top]:
        length = last - first + 1
        ops = Counter(opcode(r[source]) for r in rows[first : last + 1]).most_common(6)
        ops_text = ", ".join(f"{op} {k}" for op, k in ops)
        print(f"| {first}-{last} | {length} | {n} | {100 * length * n / total:.1f} | "
              f"{100 * s / total_samples:.1f} | {ops_text} |")


if __name__ == "__main__":
    main()
