#!/usr/bin/env bash
# Sanitizer checks: builds a second and a third tree and runs the test suite on each.
#   bash tools/check.sh           both trees below
#   bash tools/check.sh asan      build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer, every test
#   bash tools/check.sh tsan      build-tsan/: ThreadSanitizer, every test but the LibTorch-heavy
#                                 ones listed in tools/sanitizers/tsan-excluded.txt (why: there)
#   bash tools/check.sh asan-quick  build-asan-floor/: the tests without LibTorch under ASan/UBSan,
#                                 in a tree configured with -DAZG_TORCH=OFF (what CI runs)
# Findings fail the run (halt_on_error); suppressions for the uninstrumented libraries we
# link (LibTorch, OpenBLAS, OpenMP) are in tools/sanitizers/, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
what=${1:-all}
jobs=$(nproc)
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
export LSAN_OPTIONS="suppressions=$root/tools/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/tools/sanitizers/ubsan.supp"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tools/sanitizers/tsan.supp"

configure() {  # DIR SANITIZERS [CMAKE OPTIONS...]
  local dir=$1 sanitizers=$2
  shift 2
  [ -f "$dir/build.ninja" ] || cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAZG_SANITIZE="$sanitizers" "$@" >/dev/null
}

run_asan() {
  configure build-asan "address,undefined"
  cmake --build build-asan -j "$jobs"
  ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 1800
}

# The tests that need no LibTorch (the engines, the search, the action fuzz corpus), run
# as their binaries: two at a time on two cores. The tree is configured without LibTorch
# (-DAZG_TORCH=OFF), which also shows the floor building with a compiler and GoogleTest.
run_asan_quick() {
  local dir=build-asan-floor
  configure "$dir" "address,undefined" -DAZG_TORCH=OFF
  cmake --build "$dir" -j "$jobs" --target azg_env_tests azg_mcts_tests actions_fuzz
  "$dir"/bin/azg_env_tests --gtest_brief=1 > "$dir"/env_tests.log 2>&1 &
  local env_pid=$!
  "$dir"/bin/azg_mcts_tests --gtest_brief=1 && "$dir"/fuzz/actions_fuzz fuzz/corpus/actions
  wait "$env_pid" || { cat "$dir"/env_tests.log; exit 1; }
  tail -3 "$dir"/env_tests.log
}

run_tsan() {
  configure build-tsan "thread"
  cmake --build build-tsan -j "$jobs"
  local excluded
  excluded=$(grep -v '^#' tools/sanitizers/tsan-excluded.txt | grep -v '^$' | paste -sd'|')
  # ThreadSanitizer needs the address layout it expects: run without ASLR where the kernel
  # randomises more bits than this TSan knows (Linux 6.x).
  setarch "$(uname -m)" -R ctest --test-dir build-tsan --output-on-failure -j "$jobs" --timeout 1800 -E "$excluded"
}

case "$what" in
  asan) run_asan ;;
  asan-quick) run_asan_quick ;;
  tsan) run_tsan ;;
  all) run_asan; run_tsan ;;
  *) echo "usage: bash tools/check.sh [asan|tsan|asan-quick|all]" >&2; exit 2 ;;
esac
echo "check.sh $what: no sanitizer findings"
