# Twentieth session, second try: the step count polled a step ahead (no round trip on time).
# COALESCE_WALK_SYNC = steps a block may lead the slowest block by; shipped walk (sync), lean walk (lean).
source .devrun/common.sh
mkdir -p .devrun/x && for f in .devrun/s20/*.gz .devrun/bin/bench_base.gz; do gunzip -c $f > .devrun/x/$(basename $f .gz); done; chmod +x .devrun/x/*
X=.devrun/x
pick() { grep -E "^[a-z_]+ +filter_y/fast-walk(-pitched)? " | awk '{p=""; for(i=5;i<=NF;i++) if ($i ~ /%$/) p=$i; if (p!="") print $2, $4, p}'; }
one() { local label=$1; shift; step "$label"; timeout 60 env "$@" 2>&1 | pick | awk '{printf "%s %s %s | ", $1, $2, $3} END {print ""}'; }
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests, sync 2 / lean sync 2"
COALESCE_WALK_SYNC=2 timeout 60 $X/fast_sync --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
COALESCE_WALK_SYNC=2 timeout 60 $X/fast_lean --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -2
for round in 1 2; do
  one "r$round base" $X/bench_base $A
  for s in 2 4; do one "r$round sync $s" COALESCE_WALK_SYNC=$s $X/bench_sync $A; done
  for s in 0 2 4; do one "r$round lean sync $s" COALESCE_WALK_SYNC=$s $X/bench_lean $A; done
done
step done
} 2>&1 | tee $OUT/r39.txt
