# Sourced by this folder's r*.sh, which run on the device from the repo root with carry [".devrun"]:
# the lab binaries they name were built here and gzipped into .devrun/ (a local scratch folder).
step() { echo; echo "== [${SECONDS}s] $*"; }

# unpack DIR...: every DIR/*.gz and the base bench into .devrun/x ($X).
X=.devrun/x
unpack() {
  mkdir -p "$X"
  local d f
  for d in "$@" .devrun/bin; do
    for f in "$d"/*.gz; do
      [ "$d" != .devrun/bin ] || [ "$f" = .devrun/bin/bench_base.gz ] || continue
      gunzip -c "$f" > "$X/$(basename "$f" .gz)"
    done
  done
  chmod +x "$X"/*
}

# coalesce-bench's table on stdin -> one line "variant size % | ..." for the rows whose variant
# matches $PICK (an extended regex, followed by a space).
PICK='[a-z_]+/[^ ]+'
line() {
  grep -E "^[a-z_]+ +$PICK " |
    awk '{p=""; for(i=5;i<=NF;i++) if ($i ~ /%$/) p=$i; if (p!="") printf "%s %s %s | ", $2, $4, p} END {print ""}'
}

# one LABEL [VAR=value...] BENCH ARGS...: one bench invocation, its line under a step heading.
one() { local label=$1; shift; step "$label"; timeout 60 env "$@" 2>&1 | line; }

# keep_passing FILTER ARM...: runs each arm's fast-variant tests ($X/fast_ARM, gtest filter
# FILTER, log in $OUT/tests-ARM.log) and appends the arms that pass to $arms: an arm that fails
# them is not timed.
keep_passing() {
  local filter=$1 arm; shift
  for arm in "$@"; do
    step "$arm: walk tests ($filter)"
    if timeout 90 $X/fast_$arm --gtest_brief=1 --gtest_filter="$filter" > $OUT/tests-$arm.log 2>&1; then
      arms="$arms $arm"
    fi
    grep -E '^\[  (PASSED|FAILED) ' $OUT/tests-$arm.log | head -5
  done
  echo "arms timed: $arms"
}
