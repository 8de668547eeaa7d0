#!/usr/bin/env python3
"""Checks a results file written by `coalesce-bench --counters`: every verified GPU run has
hardware counters, and copy/global's measured DRAM bytes (read + written) are within 5% of the
bytes model. Prints one line per problem and a summary; exits 1 when a check fails."""
import json
import sys

COPY_TOLERANCE = 0.05


def main(path):
    with open(path) as f:
        record = json.load(f)
    if record.get("schema") != "coalesce-results/1":
        print(f"{path}: not a coalesce results file")
        return 1
    gpu_runs = [r for r in record["runs"]
                if r["gpu"] and r["status"] == "ok" and r["verified"]]
    problems = []
    if not gpu_runs:
        problems.append("no verified GPU run in the file")
    for r in gpu_runs:
        if r.get("counters") is None:
            problems.append(f"{r['variant']} {r['rows']}x{r['cols']}: no counters: "
                            f"{r.get('counters_status', '(no counters_status field)')}")
    copies = [r for r in gpu_runs if r["variant"] == "copy/global" and r.get("counters")]
    if gpu_runs and not copies:
        problems.append("copy/global has no run with counters to hold against its model")
    notes = []
    for r in copies:
        c = r["counters"]
        ratio = (c["dram_read_bytes"] + c["dram_write_bytes"]) / r["bytes"]
        notes.append(f"copy/global {r['rows']}x{r['cols']}: DRAM {ratio:.3f} of the model "
                     f"(read {c['dram_read_bytes']}, written {c['dram_write_bytes']}, "
                     f"model {r['bytes']} bytes)")
        if abs(ratio - 1) > COPY_TOLERANCE:
            problems.append(f"copy/global {r['rows']}x{r['cols']}: measured DRAM bytes are "
                            f"{ratio:.3f} of the model, more than {COPY_TOLERANCE:.0%} off")
    for line in notes + problems:
        print(line)
    with_counters = sum(1 for r in gpu_runs if r.get("counters") is not None)
    print(f"{'FAILED' if problems else 'ok'}: {with_counters} of {len(gpu_runs)} verified GPU "
          f"runs have counters; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_counters.py RESULTS.json")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
