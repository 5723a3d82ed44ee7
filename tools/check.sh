#!/usr/bin/env bash
# Sanitizer checks: builds a second and a third tree and runs the test suite on each.
#   bash tools/check.sh           both trees below
#   bash tools/check.sh asan      build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer, every test
#   bash tools/check.sh tsan      build-tsan/: ThreadSanitizer, every test but the LibTorch-heavy
#                                 ones listed in tools/sanitizers/tsan-excluded.txt (why: there)
#   bash tools/check.sh asan-quick  the ASan/UBSan build of the tests without LibTorch (what CI runs)
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

configure() {  # DIR SANITIZERS
  [ -f "$1/build.ninja" ] || cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAZG_SANITIZE="$2" >/dev/null
}

run_asan() {
  configure build-asan "address,undefined"
  cmake --build build-asan -j "$jobs"
  ctest --test-dir build-asan --output-on-failure -j "$jobs" --timeout 1800
}

# The tests that need no LibTorch (the engines, the search, the action fuzz corpus), run
# as their binaries: two at a time on two cores.
run_asan_quick() {
  configure build-asan "address,undefined"
  cmake --build build-asan -j "$jobs" --target azg_env_tests azg_mcts_tests actions_fuzz
  build-asan/bin/azg_env_tests --gtest_brief=1 > build-asan/env_tests.log 2>&1 &
  local env_pid=$!
  build-asan/bin/azg_mcts_tests --gtest_brief=1 && build-asan/fuzz/actions_fuzz fuzz/corpus/actions
  wait "$env_pid" || { cat build-asan/env_tests.log; exit 1; }
  tail -3 build-asan/env_tests.log
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
