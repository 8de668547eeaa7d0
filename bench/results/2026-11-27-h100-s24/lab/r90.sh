# eaffd76 (the one-wave u8 walk above r = 40) on the device, a second call: issue 14's whole table
# again (typed2/), then u8 filter Y above r = 40 point by point, three rounds. carry [".devrun/next65"]:
# timeout 590 bash bench/results/2026-11-27-h100-s24/lab/r90.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/s24.sh"
mkdir -p $X && for f in .devrun/next65/*.gz; do gunzip -c $f > $X/$(basename $f .gz); done && chmod +x $X/*
{
PEERS=$(build_peers)
step "issue 14's table"
BENCH=$X/bench PEERS=$PEERS \
  OUT=$OUT/typed2 timeout 300 bash bench/typed_at_the_limit.sh > /dev/null 2>&1
grep -E "^\| [a-z_]+ \| u" $OUT/typed2/typed_at_the_limit.md | awk -F'|' '$8+0 < 92 {print}'
echo "points: $(grep -cE '^\| [a-z_]+ \| u' $OUT/typed2/typed_at_the_limit.md), at 90: $(grep -c '| yes |' $OUT/typed2/typed_at_the_limit.md)"
PICK='filter_y/fast-int-running(-pitched)?'
G="--type u8 --ops filter_y --variants filter_y/fast-int-running --reps 20 --warmups 3"
for round in 1 2 3; do
  one "u8 r 64 ($round)" $X/bench $G --sizes 8192x8192,8000x6000 --radius 64
  one "u8 r 56, 48, 41 at 8192x8192 ($round)" $X/bench $G --sizes 8192x8192 --radius 56
  one "u8 r 48 ($round)" $X/bench $G --sizes 8192x8192 --radius 48
  one "u8 r 41 ($round)" $X/bench $G --sizes 8192x8192 --radius 41
done
step done
} 2>&1 | tee $OUT/r90.txt
