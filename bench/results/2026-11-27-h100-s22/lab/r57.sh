# Twenty-second session, third call (H100): u8 filter X at 8192x8192 against r, the code before
# (bench_base: HEAD's filter X) and the edge staging two elements a thread per pass, both read
# before either is stored (bench_e2, .devrun/next37): at r = 64 a u8 row's edges are 144
# elements for 128 threads. Then Nsight Compute counters of the code before at r = 56 and 64.
# Carry [".devrun/next37", ".devrun/bin"].
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next37
{
PICK='filter_x/fast-int-running(-pitched)?'
G="--type u8 --ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for r in 32 48 56 60 62 63 64; do
  one "r $r before" $X/bench_base $G --radius $r
  one "r $r edges two a pass" $X/bench_e2 $G --radius $r
done
for round in 2 3; do
  for r in 63 64; do
    one "r $r before ($round)" $X/bench_base $G --radius $r
    one "r $r edges two a pass ($round)" $X/bench_e2 $G --radius $r
  done
done
for b in zero wrap mirror; do
  one "r 64 $b before" $X/bench_base $G --radius 64 --border $b
  one "r 64 $b edges two a pass" $X/bench_e2 $G --radius 64 --border $b
done
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
m+=,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__cycles_active.avg
m+=,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
m+=,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio
m+=,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
m+=,smsp__issue_active.avg.pct_of_peak_sustained_active
for b in base e2; do
  for r in 56 64; do
    step "ncu $b u8 filter X 8192x8192 r $r"
    timeout 60 ncu --clock-control none --metrics "$m" --launch-skip 2 --launch-count 1 -k regex:typed_filter_x \
      $X/bench_$b --type u8 --ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192 --radius $r \
      --reps 1 --warmups 2 2>&1 | grep -E "^ +[a-z_]+__" | awk '{print $1, $(NF)}'
  done
done
step done
} 2>&1 | tee $OUT/r57.txt
