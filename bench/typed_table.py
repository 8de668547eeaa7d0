"""Issue 14's table from bench/typed_at_the_limit.sh's folder: the best tuned u8/u16 variant per
(operation, type, channels, size, radius) from coalesce-bench's JSON files, its % of the same
run's copy of the same bytes, and the fastest peer (peers.jsonl: NPP's 8u/16u functions and
CuPy on uint8/uint16; their copy baselines are not peers) at the same operation, type, size and
radius; grey only (the peers run no colour).

Peers are ranked and compared by GB/s, not by % of copy: every program counts the same bytes and
all run in one call on one GPU, while each program's % is of its own copy, and one such copy can
be off on its own (s25: CuPy's 8000x6000 uint16 memcpyAsync at 1664 GB/s beside cudaMemcpy's
2703 GB/s put CuPy's row sums at 113% of copy though they were 1.5x slower than ours). A peer
copy that strays more than 10% from coalesce-bench's copy of the same bytes is listed below the
table."""
import glob
import json
import sys


def is_baseline(peer):
    """A peer program's own device-to-device copy, the 100% its other lines are measured against."""
    return peer["op"] == "copy" and ("cudaMemcpy" in peer["impl"] or "memcpyAsync" in peer["impl"])


def strays(peer_copy, ours):
    """Whether a peer program's copy baseline is more than 10% off coalesce-bench's."""
    return ours and abs(peer_copy - ours) > 0.10 * ours


def main(folder):
    best, device, failed, copy_of = {}, "?", [], {}
    for path in sorted(glob.glob(folder + "/*.json")):
        doc = json.load(open(path))
        device = doc.get("device", {}).get("name", device)
        for r in doc["runs"]:
            if r.get("copy_gbps") and r.get("channels", 1) == 1:
                copy_of[(r.get("type", "f32"), r["rows"], r["cols"])] = r["copy_gbps"]
            if r["variant"].startswith("copy/memcpy") or r["status"] == "skipped":
                continue
            if r["status"] != "ok":
                failed.append(r)
                continue
            filt = r["op"] in ("filter_x", "filter_y")
            k = (r["op"], r.get("type", "f32"), r.get("channels", 1), r["rows"], r["cols"],
                 r["radius"] if filt else 0)
            if k not in best or r["pct_of_copy"] > best[k]["pct_of_copy"]:
                best[k] = r
    peers, stray = {}, []
    try:
        for line in open(folder + "/peers.jsonl"):
            p = json.loads(line)
            if is_baseline(p):
                ours = copy_of.get((p["type"], p["rows"], p["cols"]))
                if strays(p["gbps"], ours):
                    stray.append(f'- {p["impl"]} {p["type"]} {p["rows"]}x{p["cols"]}: '
                                 f'{p["gbps"]:.0f} GB/s, coalesce-bench\'s {ours:.0f} GB/s')
                continue
            if not p.get("verified"):
                continue
            k = (p["op"], p["type"], 1, p["rows"], p["cols"], p.get("radius", 0))
            if k not in peers or p["gbps"] > peers[k]["gbps"]:
                peers[k] = p
    except FileNotFoundError:
        pass
    print(f"# u8/u16 at the limit ({device})\n")
    print("Best tuned variant per operation, type, channels, size and radius: % of the same "
          "run's device copy of the same bytes (median of event-timed launches, verified "
          "exactly first); the fastest peer (NPP, CuPy) at the same point, % of its own "
          "program's copy; x peer is Coalesce's GB/s over the peer's (the same bytes counted, "
          "the same call).\n")
    print("| op | type | ch | size | r | best variant | % of copy | >= 90 | fastest peer | "
          "peer % | x peer |")
    print("|---|---|---:|---|---:|---|---:|---|---|---:|---:|")
    for k in sorted(best, key=lambda k: (k[0], k[1], k[2], -k[3] * k[4], k[5])):
        r = best[k]
        p = peers.get(k)
        peer = (f'{p["impl"]} | {p["pct_of_copy"]:.1f} | '
                f'{r["gbps"] / p["gbps"]:.1f}' if p else "- | - | -")
        rr = k[5] if k[0] in ("filter_x", "filter_y") else "-"
        print(f'| {k[0]} | {k[1]} | {k[2]} | {k[3]}x{k[4]} | {rr} | {r["variant"]} | '
              f'{r["pct_of_copy"]:.1f} | {"yes" if r["pct_of_copy"] >= 90 else "**no**"} | '
              f'{peer} |')
    if stray:
        print("\n## Peer copy baselines more than 10% off coalesce-bench's copy\n")
        print("\n".join(stray))
    if failed:
        print("\n## Failed runs\n")
        for r in failed:
            print(f'- {r["variant"]} {r["rows"]}x{r["cols"]} {r.get("type")} '
                  f'x{r.get("channels", 1)}: {r.get("error", "")}')
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
