# Twenty-second session, first call: u8/u16 filter X with the seed from runs (x_choose_seed,
# x_runs) against the code before it (bench_base, a build of 70a7949, whose filter X is HEAD's
# before this change): the typed GPU tests (new 3x4097 and 5x8192 shapes run the seed from runs
# at r = 64), memcheck and racecheck over the typed filter X cases, then A/B rounds. Binaries in
# the local scratch folder .devrun/next35. From the repo root, carry [".devrun/next35",
# ".devrun/bin"]: bash bench/results/2026-11-27-h100-s22/lab/r55.sh
source "$(dirname "$0")/../../2026-11-27-h100-s20/lab/common.sh"
source "$(dirname "$0")/../../2026-11-27-h100-s21/lab/checks.sh"
unpack .devrun/next35
{
tests_of rs gpu fast
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool gpu typed filter X"
  log=$OUT/sanitize-$tool-typed-fx.log
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $X/gpu_rs \
    --gtest_filter='*TypedGpu*filter_x*' --gtest_brief=1 > "$log" 2>&1
  echo "rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) $(grep -E '^\[  PASSED  \]|FAILED TEST' "$log" | tail -1)"
done
PICK='filter_x/fast-int-running(-pitched)?'
ab() {  # ab LABEL ARGS...: the code before, then the seed from runs
  one "$1 before" $X/bench_base "${@:2}"
  one "$1 runs" $X/bench_rs "${@:2}"
}
G="--ops filter_x --variants filter_x/fast-int-running --sizes 8192x8192,8000x6000 --reps 20 --warmups 3"
for round in 1 2 3; do ab "u8 r64 clamp ($round)" $G --type u8 --radius 64; done
ab "u8 r56 clamp" $G --type u8 --radius 56
ab "u8 r32 clamp (no change: control)" $G --type u8 --radius 32
for b in zero wrap mirror; do ab "u8 r64 $b" $G --type u8 --radius 64 --border $b; done
for round in 1 2; do ab "u16 r64 clamp ($round)" $G --type u16 --radius 64; done
ab "u16 r56 clamp" $G --type u16 --radius 56
step done
} 2>&1 | tee $OUT/r55.txt
