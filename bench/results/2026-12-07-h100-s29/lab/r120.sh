# Twenty-ninth session, issue 15: where the walk's stream starts. r119 (this folder's r119.txt)
# found s3 (one-piece runs start their stream 32 rows early at 6000 columns, with thread rows past
# the piece skipping their sums) at 95.0-95.2% of copy at 8000x6000 clamp/zero but 0.8-2.0 points down
# at 8192x8192, and s2 (the skip alone) down there as well. These arms start the stream early
# without the skip (put() guards the rows before the piece instead):
#   s4 = walk_offset_s4.patch: v = the last step's slack (s3 without the skip);
#   s5 = walk_offset_s5.patch: v = S - 8, group 0 of 2r + 8 rows, one more step where needed;
#   s6 = walk_offset_s6.patch: v such that the last step holds 8 rows, with the skip;
#   s3 = ../../2026-11-28-h100-s28/lab/walk_stream_offset.patch (r119's best at 6000 columns);
#   sP = HEAD again in the same call.
# NOT run in the twenty-ninth session: its device time ran out on refused starts. The binaries
# were in that session's .devrun/s29b and are gone with its checkout: rebuild them here with
# lab/build_r120.sh (HEAD and each arm: bench_<arm>.gz, and fast_<arm>.gz for s4-s6). The
# eight files come to about 45 MiB, within the 64 MiB that may travel with the tree. On the
# device, carry [".devrun/s29b"]:
# timeout 480 bash bench/results/2026-12-07-h100-s29/lab/r120.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
unpack .devrun/s29b
PICK='filter_y/fast-walk(-pitched)?'
A="--ops filter_y --variants filter_y/fast-walk --tier tuned --sizes 8000x6000,8192x8192 --reps 30 --warmups 3"
F='*filter_y_fast_walk*-*prefix*'
{
nvidia-smi --query-gpu=name --format=csv,noheader
arms="sP s3"
keep_passing "$F" s4 s5 s6
for round in 1 2; do
  for arm in $arms; do one "r64 clamp round $round $arm" $X/bench_$arm $A --radius 64; done
done
for b in wrap mirror zero; do
  for arm in $arms; do one "r64 $b $arm" $X/bench_$arm $A --radius 64 --border $b; done
done
for arm in $arms; do one "r32 clamp $arm" $X/bench_$arm $A --radius 32; done
step done
} 2>&1 | tee $OUT/r120.txt
