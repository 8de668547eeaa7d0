# Twenty-second session, after r62 (whose u8 odd sizes, 12 MB, sit in the L2 and swung 70-106):
# the line at the row's phase against the lead of 32 on dense u8 rows of odd widths well past the
# L2 (8191x8191, 12000x6001), three rounds, and u16 once. Carry [".devrun/next40"].
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
mkdir -p $X && for f in .devrun/next40/bench*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
PICK='filter_x/fast-int-running'
G="--ops filter_x --variants filter_x/fast-int-running --sizes 8191x8191,12000x6001 --reps 20 --warmups 3"
for round in 1 2 3; do
  for r in 4 64; do
    one "u8 r $r lead 32 ($round)" $X/bench_l32 $G --type u8 --radius $r
    one "u8 r $r line at the row's phase ($round)" $X/bench_ls $G --type u8 --radius $r
  done
done
one "u16 r 64 lead 32" $X/bench_l32 $G --type u16 --radius 64
one "u16 r 64 line at the row's phase" $X/bench_ls $G --type u16 --radius 64
step done
} 2>&1 | tee $OUT/r63.txt
