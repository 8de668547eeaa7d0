# Sourced by r51.sh and r53.sh after the twentieth session's common.sh (step, $X): the checks run
# on a final build's binaries, $X/<name>_<suffix>.

# tests_of SUFFIX NAME...: each binary whole, its summary line.
tests_of() {
  local sfx=$1 b
  shift
  for b in "$@"; do
    step "tests: $b"
    timeout 200 "$X/${b}_$sfx" --gtest_brief=1 2>&1 | grep -E "^\[  (PASSED|SKIPPED|FAILED) " | tail -3
  done
}

# sanitize_col_sums SUFFIX: memcheck and racecheck over every column-sums case of the fast and
# gpu binaries, each log in $OUT and one line per run.
sanitize_col_sums() {
  local sfx=$1 tool b log
  for tool in memcheck racecheck; do
    for b in fast gpu; do
      step "compute-sanitizer $tool $b '*col_sums*'"
      log=$OUT/sanitize-$tool-$b.log
      timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 "$X/${b}_$sfx" \
        --gtest_filter='*col_sums*' --gtest_brief=1 > "$log" 2>&1
      echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' "$log" | tail -1)"
    done
  done
}
