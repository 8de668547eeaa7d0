#!/usr/bin/env python3
"""Merges coalesce-bench JSON and the peers' JSON lines into bench/results/<date>-<gpu>.md.

Every figure is the median of CUDA-event-timed launches; bytes are the
engine's model (input read once + output written once); % of copy is against the device-to-device
cudaMemcpy measured by the same process (the Runner for Coalesce, each peer program for itself).
"x fastest peer" is the fastest verified peer's time over this implementation's time: >= 1.00
means at least as fast as every peer.

Standard library only.
"""
import argparse
import json
import os
import sys

OPS = ["copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"]


def load_coalesce(path):
    if not path or not os.path.exists(path):
        return None, []
    with open(path) as f:
        j = json.load(f)
    rows = []
    for r in j.get("runs", []):
        if not r.get("gpu", True):
            continue
        rows.append({
            "source": "coalesce", "op": r["op"], "impl": "Coalesce " + r["variant"], "variant": r["variant"],
            "rows": r["rows"], "cols": r["cols"], "radius": r.get("radius", 0) if r["op"].startswith("filter") else 0,
            "ms": r["median_ms"], "gbps": r["gbps"], "pct_of_copy": r["pct_of_copy"], "copy_gbps": r["copy_gbps"],
            "verified": bool(r["verified"]) and r["status"] == "ok", "status": r["status"], "error": r.get("error", ""),
            "bytes": r["bytes"], "cache_resident": r.get("cache_resident", False),
        })
    return j.get("device", {}), rows


def load_lines(path):
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
    return out


def size_key(r):
    return (r["rows"], r["cols"])


def fmt_size(r):
    return "%dx%d" % (r["rows"], r["cols"])


def group_key(r):
    return (r["op"], r["rows"], r["cols"], r["radius"] if r["op"].startswith("filter") else 0)


def is_fast(r):
    return r["source"] == "coalesce" and "/fast-" in r.get("variant", "")


def fastest_peers(peers):
    best = {}
    for p in peers:
        if not p.get("verified") or p["op"] == "copy":
            continue
        k = group_key(p)
        if k not in best or p["ms"] < best[k]["ms"]:
            best[k] = p
    return best


def copy_rows(coalesce):
    """The Runner's own cudaMemcpy figure, one row per size."""
    seen = {}
    for r in coalesce:
        k = size_key(r)
        if k not in seen and r["copy_gbps"] > 0:
            b = 8 * r["rows"] * r["cols"]
            seen[k] = {"source": "coalesce", "op": "copy", "impl": "cudaMemcpy D2D (Coalesce runner)", "variant": "",
                       "rows": r["rows"], "cols": r["cols"], "radius": 0, "ms": b / (r["copy_gbps"] * 1e9) * 1e3,
                       "gbps": r["copy_gbps"], "pct_of_copy": 100.0, "copy_gbps": r["copy_gbps"], "verified": True}
    return list(seen.values())


def table(entries, best, out, radius_label=False):
    out.append("| operation | size | %simplementation | ms | GB/s | %% of copy | x fastest peer | verified |" %
               ("r | " if radius_label else ""))
    out.append("|---|---|%s---|---:|---:|---:|---:|---|" % ("---|" if radius_label else ""))
    for e in entries:
        fp = best.get(group_key(e))
        ratio = "%.2f" % (fp["ms"] / e["ms"]) if fp and e["ms"] > 0 and e["op"] != "copy" else "-"
        name = e["impl"]
        if is_fast(e):
            name = "**" + name + "**"
        ver = "yes" if e.get("verified") else ("NO: " + (e.get("note") or e.get("error") or e.get("status", "")))[:60]
        out.append("| %s | %s | %s%s | %.4f | %.0f | %.1f | %s | %s |" % (
            e["op"], fmt_size(e), ("%d | " % e["radius"]) if radius_label else "", name, e["ms"], e["gbps"],
            e["pct_of_copy"], ratio, ver))


def summary(coalesce, peers, best, out, radius):
    out.append("| operation | size | r | best Coalesce variant | ms | % of copy | fastest peer | peer ms | peer % of its copy"
               " | x fastest peer | >= 95% of copy | >= fastest peer |")
    out.append("|---|---|---|---|---:|---:|---|---:|---:|---:|---|---|")
    keys = sorted({group_key(r) for r in coalesce if r["op"] != "copy"
                   and (not r["op"].startswith("filter") or r["radius"] == radius)},
                  key=lambda k: (OPS.index(k[0]), -k[1] * k[2]))
    for k in keys:
        cands = [r for r in coalesce if group_key(r) == k and r["verified"]]
        if not cands:
            continue
        b = min(cands, key=lambda r: r["ms"])
        fp = best.get(k)
        ratio = fp["ms"] / b["ms"] if fp else float("nan")
        out.append("| %s | %dx%d | %s | %s | %.4f | %.1f | %s | %s | %s | %s | %s | %s |" % (
            k[0], k[1], k[2], k[3] if k[0].startswith("filter") else "-", b["variant"], b["ms"], b["pct_of_copy"],
            fp["impl"] if fp else "-", "%.4f" % fp["ms"] if fp else "-", "%.1f" % fp["pct_of_copy"] if fp else "-",
            "%.2f" % ratio if fp else "-", "yes" if b["pct_of_copy"] >= 95.0 else "**no**",
            ("yes" if ratio >= 1.0 else "**no**") if fp else "-"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coalesce", nargs="*", default=[], help="coalesce-bench --json files (main sizes)")
    ap.add_argument("--peers", nargs="*", default=[], help="JSON-lines files from peers_native / peers_python.py")
    ap.add_argument("--sweep", default=None, help="coalesce-bench --json of the size sweep")
    ap.add_argument("--chart", default=None, help="file name of the sweep chart, linked from the report")
    ap.add_argument("--extra", default=None, help="markdown appended verbatim (environment, sanitizer, SASS)")
    ap.add_argument("--title", default="Coalesce bandwidth comparison")
    a = ap.parse_args()

    device, coalesce = {}, []
    for path in a.coalesce:
        d, rows = load_coalesce(path)
        device = device or d or {}
        coalesce += rows
    peers = []
    for path in a.peers:
        peers += load_lines(path)
    best = fastest_peers(peers)

    out = ["# %s" % a.title, ""]
    if device:
        out.append("Device: **%s** (%s SMs, L2 %.0f MiB, %.0f GiB, theoretical %.0f GB/s)." % (
            device.get("name", "?"), device.get("sm_count", "?"), device.get("l2_bytes", 0) / 2**20,
            device.get("memory_bytes", 0) / 2**30, device.get("theoretical_gbps", 0)))
        out.append("")
    out.append(__doc__.strip().split("\n\n")[1].replace("\n", " "))
    out.append("")

    radii = sorted({r["radius"] for r in coalesce if r["op"].startswith("filter")}) or [4]
    for n, radius in enumerate(radii):
        out.append("## Goals, %sfilters at r = %d" % ("all operations, " if n == 0 else "", radius))
        out.append("")
        summary(coalesce if n == 0 else [r for r in coalesce if r["op"].startswith("filter")], peers, best, out,
                radius)
        out.append("")

    out.append("## Every implementation")
    out.append("")
    everything = coalesce + copy_rows(coalesce) + peers
    everything.sort(key=lambda e: (OPS.index(e["op"]) if e["op"] in OPS else 99, -e["rows"] * e["cols"],
                                   e.get("radius", 0), e["ms"]))
    table(everything, best, out, radius_label=True)
    out.append("")

    if a.sweep:
        _, sweep = load_coalesce(a.sweep)
        if sweep:
            out.append("## Size sweep, the best variant of each operation (filters r = %d)" % (sweep[0].get("radius") or 4))
            out.append("")
            out.append("L2-resident: input + output fit in the L2, so the figure measures the cache, not DRAM "
                       "(marked *L2*). % of copy is against cudaMemcpy of the same size.")
            out.append("")
            out.append("| operation | variant | size | MB moved | ms | GB/s | % of copy | L2 |")
            out.append("|---|---|---|---:|---:|---:|---:|---|")
            sweep.sort(key=lambda r: (OPS.index(r["op"]), r["variant"], r["rows"] * r["cols"], r["rows"]))
            for r in sweep:
                out.append("| %s | %s | %s | %.1f | %.4f | %.0f | %.1f | %s |" % (
                    r["op"], r["variant"], fmt_size(r), r["bytes"] / 1e6, r["ms"], r["gbps"], r["pct_of_copy"],
                    ("*L2*" if r["cache_resident"] else "") + ("" if r["verified"] else " NOT VERIFIED")))
            out.append("")
            if a.chart:
                out.append("![size sweep](%s)" % a.chart)
                out.append("")
    if a.extra and os.path.exists(a.extra):
        with open(a.extra) as f:
            out.append(f.read())
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
