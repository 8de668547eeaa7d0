#!/usr/bin/env python3
"""Draws the size sweep of coalesce-bench --json as a PNG: % of cudaMemcpy against bytes moved,
one line per variant, L2-resident sizes drawn hollow over a shaded band.

    python3 bench/plot_sweep.py sweep.json sweep.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    with open(src) as f:
        j = json.load(f)
    runs = [r for r in j["runs"] if r.get("gpu", True) and r["status"] == "ok"]
    l2 = j.get("device", {}).get("l2_bytes", 0)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 5.5))
    order = ["copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"]
    variants = sorted({r["variant"] for r in runs}, key=lambda v: (order.index(v.split("/")[0]), v))
    for variant in variants:
        pts = sorted((r for r in runs if r["variant"] == variant), key=lambda r: r["bytes"])
        label = variant
        for ax, key in ((ax1, "pct_of_copy"), (ax2, "gbps")):
            xs = [r["bytes"] / 1e6 for r in pts]
            ys = [r[key] for r in pts]
            line, = ax.plot(xs, ys, marker="o", label=label)
            hollow = [(x, y) for x, y, r in zip(xs, ys, pts) if r["cache_resident"]]
            if hollow:
                ax.scatter([h[0] for h in hollow], [h[1] for h in hollow], s=80, facecolors="white",
                           edgecolors=line.get_color(), zorder=3)
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_xlabel("bytes moved per launch [MB] (input read once + output written once)")
        if l2:
            ax.axvspan(ax.get_xlim()[0], l2 / 1e6, color="0.9", zorder=0)
            ax.text(l2 / 1e6, ax.get_ylim()[1], " L2 (%.0f MB): hollow points are L2-resident" % (l2 / 1e6),
                    va="top", ha="right", fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
    ax1.set_ylabel("% of cudaMemcpy D2D (same size, same run)")
    ax1.axhline(95, color="k", linestyle="--", linewidth=0.8)
    ax2.set_ylabel("GB/s")
    ax1.legend(fontsize=8, loc="lower right")
    fig.suptitle("Coalesce, best variant of each operation: size sweep on %s (filters r = 4)" % j.get("device", {}).get("name", "?"))
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
