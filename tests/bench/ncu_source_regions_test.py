"""bench/ncu_source_regions.py: runs of equally executed instructions become one region, regions
come largest share first, and a file without the source page's header is refused."""

import os
import subprocess
import sys
import tempfile
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
sys.path.insert(0, BENCH)
import ncu_source_regions as nsr  # noqa: E402

HEADER = ["Address", "Source", "Warp Stall Sampling (All Samples)", "Instructions Executed"]


def page(rows):
    """The CSV ncu prints: its own lines first, then the header and one line per instruction."""
    lines = ["==PROF== Connected to process 1", '"Kernel Name","k"']
    lines.append(",".join(f'"{h}"' for h in HEADER))
    for i, (sass, samples, executed) in enumerate(rows):
        lines.append(f'"0x{i:04x}","{sass}","{samples}","{executed}"')
    lines.append("coalesce-bench: 1 verified")  # the profiled program's own output follows
    return "\n".join(lines) + "\n"


ROWS = [
    ("MOV R1, c[0x0][0x28]", 1, 10),     # prologue: 10 executions
    ("S2R R0, SR_TID.X", 0, 10),
    ("LDS.64 R2, [R4]", 5, 1000),        # a loop body: 3 instructions x 1000
    ("FADD R6, R6, R2", 2, 1000),
    ("@P0 BRA 0x20", 1, 1000),
    ("STG.E [R8], R6", 4, "1,200"),      # thousands separators are read as numbers
    ("EXIT", 0, 10),
]


class Regions(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp(suffix=".csv")
        with os.fdopen(fd, "w") as f:
            f.write(page(ROWS))

    def tearDown(self):
        os.remove(self.path)

    def test_equal_counts_in_a_row_are_one_region_largest_share_first(self):
        header, rows = nsr.read_rows(self.path)
        self.assertEqual(len(rows), len(ROWS))
        self.assertEqual(nsr.regions(header, rows),
                         [[2, 4, 1000, 8], [5, 5, 1200, 4], [0, 1, 10, 1], [6, 6, 10, 0]])

    def test_opcode_skips_the_predicate_and_the_modifiers(self):
        self.assertEqual(nsr.opcode("@P0 BRA 0x20"), "BRA")
        self.assertEqual(nsr.opcode("LDS.64 R2, [R4]"), "LDS")

    def test_table_gives_each_region_its_share(self):
        out = subprocess.run([sys.executable, os.path.join(BENCH, "ncu_source_regions.py"),
                              self.path, "--top", "2"], capture_output=True, text=True,
                             check=True).stdout
        lines = out.splitlines()
        self.assertIn("7 SASS instructions, 4230 executed", lines[0])
        self.assertEqual(len(lines), 5)  # summary, table head, rule, two regions
        self.assertTrue(lines[3].startswith("| 2-4 | 3 | 1000 | 70.9 | 61.5 | "), lines[3])
        self.assertTrue(lines[4].startswith("| 5-5 | 1 | 1200 | 28.4 | 30.8 | STG 1"), lines[4])

    def test_a_file_that_is_not_a_source_page_is_refused(self):
        with open(self.path, "w") as f:
            f.write("ID,Kernel Name,Metric Name\n")
        run = subprocess.run([sys.executable, os.path.join(BENCH, "ncu_source_regions.py"),
                              self.path], capture_output=True, text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("not an ncu --page source --csv file", run.stderr)


if __name__ == "__main__":
    unittest.main()
