"""bench/typed_table.py: the best variant per point, the fastest peer of NPP's and CuPy's lines
(their copy baselines and unverified lines are not peers), the ratio, and failed runs listed."""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import typed_table  # noqa: E402


def run(variant, pct, tname="u8", radius=0, status="ok", channels=1):
    return {"op": variant.split("/")[0], "variant": variant, "type": tname, "channels": channels,
            "rows": 8192, "cols": 8192, "radius": radius, "pct_of_copy": pct, "status": status}


def peer(op, impl, pct, tname="u8", radius=0, verified=True):
    return {"source": "x", "op": op, "impl": impl, "type": tname, "rows": 8192, "cols": 8192,
            "radius": radius, "pct_of_copy": pct, "verified": verified}


class Table(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def table(self, runs, peers):
        with open(os.path.join(self.dir, "grey.json"), "w") as f:
            json.dump({"device": {"name": "test"}, "runs": runs}, f)
        with open(os.path.join(self.dir, "peers.jsonl"), "w") as f:
            for p in peers:
                f.write(json.dumps(p) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = typed_table.main(self.dir)
        return status, [l for l in out.getvalue().splitlines() if l.startswith("| filter_y")
                        or l.startswith("| copy") or l.startswith("| transpose")]

    def test_the_fastest_verified_peer_of_either_library_and_the_ratio(self):
        status, rows = self.table(
            [run("filter_y/fast-int-running", 88.0, radius=64),
             run("filter_y/fast-int-running-pitched", 90.5, radius=64)],
            [peer("filter_y", "NPP FilterColumnBorder", 1.5, radius=64),
             peer("filter_y", "CuPy uniform_filter1d(axis=0)", 9.05, radius=64),
             peer("filter_y", "CuPy fast but wrong", 95.0, radius=64, verified=False)])
        self.assertEqual(status, 0)
        self.assertEqual(rows, ["| filter_y | u8 | 1 | 8192x8192 | 64 | "
                                "filter_y/fast-int-running-pitched | 90.5 | yes | "
                                "CuPy uniform_filter1d(axis=0) | 9.1 | 10.0 |"])

    def test_copy_baselines_are_not_peers_and_points_below_90_are_marked(self):
        _, rows = self.table(
            [run("copy/fast-typed", 97.0), run("transpose/fast-typed-prmt", 89.9)],
            [peer("copy", "cudaMemcpy D2D", 100.0), peer("copy", "CuPy memcpyAsync D2D", 100.0),
             peer("transpose", "NPP Transpose", 18.8)])
        self.assertEqual(rows[0], "| copy | u8 | 1 | 8192x8192 | - | copy/fast-typed | 97.0 | yes | "
                                  "- | - | - |")
        self.assertIn("| 89.9 | **no** | NPP Transpose | 18.8 | 4.8 |", rows[1])

    def test_a_failed_run_is_listed_and_fails_the_table(self):
        status, _ = self.table([run("copy/fast-typed", 97.0),
                                dict(run("transpose/fast-typed-prmt", 0.0, status="failed"),
                                     error="mismatch at (0, 0)")], [])
        self.assertEqual(status, 1)


if __name__ == "__main__":
    unittest.main()
