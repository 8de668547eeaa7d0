# Prepared in the twentieth session for the next: each step checks the count polled two steps
# before (slack >= 3), or only every COALESCE_WALK_SYNC_EVERY steps; the control runs the sync
# build with the sync off. Run from the repo root with carry [".devrun"]: timeout 300 bash .devrun/next21/r40.sh
source .devrun/common.sh
mkdir -p .devrun/x && for f in .devrun/next21/*.gz .devrun/bin/bench_base.gz; do gunzip -c $f > .devrun/x/$(basename $f .gz); done; chmod +x .devrun/x/*
X=.devrun/x
pick() { grep -E "^[a-z_]+ +filter_y/fast-walk(-pitched)? " | awk '{p=""; for(i=5;i<=NF;i++) if ($i ~ /%$/) p=$i; if (p!="") print $2, $4, p}'; }
one() { local label=$1; shift; step "$label"; timeout 60 env "$@" 2>&1 | pick | awk '{printf "%s %s %s | ", $1, $2, $3} END {print ""}'; }
A="--ops filter_y --variants filter_y/fast-walk --sizes 8000x6000,8192x8192 --radius 64 --reps 20 --warmups 3"
{
step "walk tests, lean sync 3"
COALESCE_WALK_SYNC=3 timeout 60 $X/fast_lean --gtest_filter='*walk*' --gtest_brief=1 2>&1 | tail -1
one "base" $X/bench_base $A
one "sync 0 (the sync code, not used)" COALESCE_WALK_SYNC=0 $X/bench_sync $A
one "sync 3" COALESCE_WALK_SYNC=3 $X/bench_sync $A
one "lean sync 3" COALESCE_WALK_SYNC=3 $X/bench_lean $A
one "lean sync 5" COALESCE_WALK_SYNC=5 $X/bench_lean $A
one "sync 5" COALESCE_WALK_SYNC=5 $X/bench_sync $A
one "lean sync 3 every 4" COALESCE_WALK_SYNC=3 COALESCE_WALK_SYNC_EVERY=4 $X/bench_lean $A
one "sync 3 every 4" COALESCE_WALK_SYNC=3 COALESCE_WALK_SYNC_EVERY=4 $X/bench_sync $A
one "base (again)" $X/bench_base $A
one "lean sync 3 (again)" COALESCE_WALK_SYNC=3 $X/bench_lean $A
step done
} 2>&1 | tee $OUT/r40.txt
