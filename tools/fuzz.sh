#!/usr/bin/env bash
# Fuzzing: builds the fuzz/ targets as libFuzzer fuzzers with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer (build-fuzz/), then runs each for a given time.
#   bash tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60 s, every target)
# Targets (fuzz/*_fuzz.cpp): actions records agent_spec config model_meta run_files run under
# libFuzzer; model_file, checkpoint (LibTorch's loaders, whose 1.13 headers clang 14
# cannot compile in C++20) and web_api (the web board's API, which links them) under
# GCC + ASan with corpus_main's random mutations.
# New inputs that widen coverage go to build-fuzz/corpus/<target>/ (the committed seeds in
# fuzz/corpus/<target>/ stay as they are); a crash, hang or out-of-memory stops the
# target and leaves crash-*/timeout-*/oom-* in build-fuzz/findings/<target>/: fix it,
# then copy the file into fuzz/corpus/<target>/ so ctest replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(actions records agent_spec config model_meta run_files model_file checkpoint web_api)
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Haswell}
bash tools/setup.sh fuzz
libfuzzer=() mutation=()
for t in "${targets[@]}"; do
  case "$t" in
    model_file|checkpoint|web_api) mutation+=("$t") ;;
    *) libfuzzer+=("$t") ;;
  esac
done
if [ ${#libfuzzer[@]} -gt 0 ]; then
  [ -f build-fuzz/build.ninja ] || CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAZG_FUZZ=ON -DAZG_SANITIZE="address,undefined" -DAZG_BUILD_TESTS=OFF >/dev/null
  cmake --build build-fuzz -j "$(nproc)" --target "${libfuzzer[@]/%/_fuzz}"
fi
if [ ${#mutation[@]} -gt 0 ]; then
  # LibTorch's loaders: GCC with ASan + UBSan (the tree of tools/check.sh asan).
  [ -f build-asan/build.ninja ] || cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAZG_SANITIZE="address,undefined" >/dev/null
  cmake --build build-asan -j "$(nproc)" --target "${mutation[@]/%/_fuzz}"
fi
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"  # leaks: LibTorch's own, at exit
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
status=0
mkdir -p build-fuzz/findings
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/findings/$t"
  log=build-fuzz/findings/$t.log
  echo "== $t: $seconds s"
  if [[ " ${mutation[*]} " == *" $t "* ]]; then
    ok=0
    (cd "build-fuzz/findings/$t" && "../../../build-asan/fuzz/${t}_fuzz" "../../../fuzz/corpus/$t" \
      -mutate_seconds="$seconds") > "$log" 2>&1 || ok=1
    if [ $ok = 1 ]; then
      status=1
      echo "   FOUND: build-fuzz/findings/$t/mutant-in-progress (log: $log)"
    fi
    tail -1 "$log" | sed 's/^/   /'
    continue
  fi
  if ! "build-fuzz/fuzz/${t}_fuzz" "build-fuzz/corpus/$t" "fuzz/corpus/$t" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=4096 -max_len=65536 -artifact_prefix="build-fuzz/findings/$t/" -print_final_stats=1 \
      > "$log" 2>&1; then
    status=1
    echo "   FOUND: $(ls "build-fuzz/findings/$t" | head -3 | tr '\n' ' ')(log: $log)"
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" | sed 's/^/   /' || true
done
exit $status
