"""bench/lessons_columns.py: the cells it writes, that filling is idempotent and touches only its
column, and that extract keeps only the runs asked for."""

import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import lessons_columns as lc  # noqa: E402


def run(variant, pct, rows=8192, params=None, **extra):
    r = {"op": variant.split("/")[0], "variant": variant, "rows": rows, "cols": rows,
         "pct_of_copy": pct, "gbps": 1000.0 * pct, "status": "ok", "verified": True,
         "gpu": not variant.split("/")[1].startswith("cpu-"), "params": params or {},
         "ns_per_access": "nan"}
    r.update(extra)
    return r


def record(variants, runs, sizes=((8192, 8192),), sweep=()):
    return {"schema": "coalesce-results/1", "device": {"name": "test"},
            "config": {"variants": list(variants),
                       "sizes": [{"rows": r, "cols": c} for r, c in sizes],
                       "sweep": [{"name": n, "values": v} for n, v in sweep]},
            "runs": runs}


PAGE = """# test

| id | finding | H100 | H200 | agrees? |
|---|---|---|---|---|
| `alpha` | a | | old | yes |
| `beta` | b | kept | | no |
"""


class Cells(unittest.TestCase):
    def test_variants_in_teaching_order_at_the_first_size_without_host_runs(self):
        rec = record(["transpose/global-naive", "transpose/shared-padded"],
                     [run("transpose/shared-padded", 93.44), run("transpose/global-naive", 15.4),
                      run("transpose/cpu-naive", 1.0),
                      run("transpose/global-naive", 14.7, rows=16384)],
                     sizes=((8192, 8192), (16384, 16384)))
        self.assertEqual(lc.cell(rec), "global-naive 15.4; shared-padded 93.4")

    def test_a_sweep_shows_its_telling_points_and_names_the_parameter_once(self):
        runs = [run("gather/global", 100.0 / s, params={"stride": s}) for s in (1, 2, 3, 4, 64)]
        rec = record(["gather/global"], runs, sweep=[("stride", [1, 2, 3, 4, 64])])
        self.assertEqual(lc.cell(rec), "global: stride=1 100.0, 2 50.0, 4 25.0")

    def test_per_access_and_shared_memory_figures_and_a_size_that_is_not_8192(self):
        rec = record(["constant_read/constant"],
                     [run("constant_read/constant", 2.0, rows=4096, ns_per_access=1.044,
                          params={"distinct": 0, "repeat": 256})],
                     sizes=((4096, 4096),), sweep=[("distinct", [0]), ("repeat", [256])])
        self.assertEqual(lc.cell(rec), "4096x4096: constant 1.04 ns")
        rec = record(["smem_copy_tile/set-row-read-row"],
                     [run("smem_copy_tile/set-row-read-row", 532.0)])
        self.assertEqual(lc.cell(rec), "set-row-read-row 532.0 TB/s")

    def test_a_run_that_did_not_verify_says_so(self):
        bad = run("copy/global", 90.0, verified=False)
        skipped = run("copy/pitched", 0.0, status="skipped")
        rec = record(["copy/global", "copy/pitched"], [bad, skipped])
        self.assertEqual(lc.cell(rec), "global not verified; pitched skipped")


class Page(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lessons-columns-")
        self.doc = os.path.join(self.dir, "lessons.md")
        with open(self.doc, "w", encoding="utf-8") as f:
            f.write(PAGE)
        self.data = os.path.join(self.dir, "data")
        os.mkdir(self.data)
        with open(os.path.join(self.data, "alpha.json"), "w", encoding="utf-8") as f:
            json.dump(record(["copy/global"], [run("copy/global", 94.2)]), f)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def fill(self, column):
        return lc.main(["--doc", self.doc, "fill", column, self.data])

    def read(self):
        with open(self.doc, encoding="utf-8") as f:
            return f.read()

    def test_fill_writes_its_column_only_and_again_changes_nothing(self):
        self.assertEqual(self.fill("H200"), 0)
        once = self.read()
        self.assertIn("| `alpha` | a | | global 94.2 | yes |", once)
        self.assertIn("| `beta` | b | kept | | no |", once)  # no beta.json: left alone
        self.assertEqual(self.fill("H200"), 0)
        self.assertEqual(self.read(), once)

    def test_an_unknown_column_is_refused_and_the_page_is_unchanged(self):
        self.assertEqual(self.fill("A100"), 1)
        self.assertEqual(self.read(), PAGE)

    def test_extract_keeps_the_variants_sizes_and_parameter_values_asked_for(self):
        src = os.path.join(self.dir, "sweep.json")
        runs = [run("gather/global", 100.0 / s, params={"stride": s}) for s in (1, 2, 4)]
        runs += [run("gather/global", 1.0, rows=4096, params={"stride": 1}),
                 run("scatter/global", 1.0, params={"stride": 1})]
        with open(src, "w", encoding="utf-8") as f:
            json.dump(record([], runs), f)
        out = os.path.join(self.dir, "lesson.json")
        self.assertEqual(lc.main(["extract", out, src, "--variants", "gather/global",
                                  "--param", "stride=1,4", "--size", "8192x8192"]), 0)
        with open(out, encoding="utf-8") as f:
            got = json.load(f)
        self.assertEqual([r["params"]["stride"] for r in got["runs"]], [1, 4])
        self.assertEqual(lc.cell(got), "global: stride=1 100.0, 4 25.0")


if __name__ == "__main__":
    unittest.main()
