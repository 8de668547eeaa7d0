"""Reads `ncu --csv --page raw --print-units base` on stdin (the metrics bench/ncu.sh asks for) and
prints one line per profiled kernel launch."""
import csv
import sys


def main():
    rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
    if len(rows) < 3:
        print("  (no kernel profiled)")
        return
    head = rows[0]
    for r in rows[2:]:  # rows[1] holds the units
        d = dict(zip(head, r))

        def f(key):
            v = d.get(key, "").replace(",", "")
            try:
                return float(v)
            except ValueError:
                return float("nan")

        t_ns = f("gpu__time_duration.sum")
        rd, wr = f("dram__bytes_read.sum"), f("dram__bytes_write.sum")
        print(f"  {d.get('Kernel Name', '?')[:36]:36s} {t_ns / 1e3:7.1f} us"
              f"  DRAM rd {rd / 1e6:7.1f} wr {wr / 1e6:7.1f} MB {(rd + wr) / t_ns:6.0f} GB/s"
              f" ({f('dram__throughput.avg.pct_of_peak_sustained_elapsed'):4.1f}% peak)"
              f"  L2 rd {f('lts__t_sectors_op_read.sum') * 32 / 1e6:7.1f} wr {f('lts__t_sectors_op_write.sum') * 32 / 1e6:7.1f} MB"
              f" hit {f('lts__t_sector_hit_rate.pct'):4.1f}%"
              f"  occ {f('sm__warps_active.avg.pct_of_peak_sustained_active'):4.1f}%"
              f"  bank-conf {f('l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum'):.0f}"
              f"  inst {f('smsp__inst_executed.sum') / 1e6:.1f}M")


if __name__ == "__main__":
    main()
