# Twenty-second session, second call. r55 showed u8 filter X at 8192x8192 (and 8000x6000 pitched
# to 8192 bytes) not monotonic in r: r = 32 87.5, r = 56 96.9, r = 64 86.2, with the same
# geometry, so the seed is not its cost. Here: the radius sweep, the three geometries forced
# (COALESCE_FX_CHOICE, lab/fx_choice_knob.patch, build bench_fx in .devrun/next36), Nsight
# Compute counters at r = 56 against 64, and the u8 filter Y walk's stall reasons per SASS line
# at r = 64. Carry [".devrun/next36", ".devrun/bin"].
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/next36
{
PICK='filter_x/fast-int-running(-pitched)?'
G="--type u8 --ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for r in 24 28 32 36 40 44 48 52 56 60 62 63 64; do one "sweep r $r" $X/bench_fx $G --radius $r; done
for r in 32 56 64; do
  for c in 0 1 2; do one "r $r choice $c" COALESCE_FX_CHOICE=$c $X/bench_fx $G --radius $r; done
done
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
m+=,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem
m+=,launch__shared_mem_config_size,launch__waves_per_multiprocessor,launch__occupancy_per_block_size
m+=,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__cycles_active.avg
m+=,sm__cycles_elapsed.max,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
for r in 32 56 64; do
  step "ncu u8 filter X 8192x8192 r $r"
  timeout 60 ncu --clock-control none --metrics "$m" --launch-skip 2 --launch-count 1 -k regex:typed_filter_x \
    $X/bench_fx --type u8 --ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192 --radius $r \
    --reps 1 --warmups 2 2>&1 | grep -E "^ +[a-z_]+__" | awk '{print $1, $(NF)}'
done
step "ncu source: u8 filter Y walk 8192x8192 r 64"
timeout 120 bash bench/ncu_source.sh $X/bench_fx typed_filter_y_walk $OUT/fy-u8-r64.csv --type u8 \
  --ops filter_y --variants filter_y/fast-int-running --sizes 8192x8192 --radius 64 2>&1 | tail -40
step done
} 2>&1 | tee $OUT/r56.txt
