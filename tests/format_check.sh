#!/usr/bin/env bash
# Every C++ source follows .clang-format (Google style, 100 columns): clang-format's dry run
# with warnings as errors, as CI runs it. Fix with: clang-format -i FILE...
# Skips build/ and runs/ (the ignored outputs: a run may hold a copy of another project).
# Exit 77 (skipped) where clang-format is missing (bash tools/setup.sh installs it).
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
format=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$format" ]; then
  echo "SKIPPED: no clang-format (install it with: bash tools/setup.sh)"
  exit 77
fi
mapfile -t files < <(find . \( -path ./node_modules -o -path './build*' -o -path ./runs -o -path ./.git -o -path './.*' -o -path '*/node_modules' \) -prune \
  -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print | sort)
if [ ${#files[@]} = 0 ]; then
  echo "FAIL: no C++ source found under $root"
  exit 1
fi
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if ! "$format" --dry-run -Werror "${files[@]}" 2>"$report"; then
  bad=$(grep 'error:' "$report" | cut -d: -f1 | sort -u)
  echo "FAIL: $(wc -l <<<"$bad") of ${#files[@]} files differ from .clang-format (clang-format -i them):"
  head -20 <<<"$bad"
  exit 1
fi
long=$(awk 'length > 100 { print FILENAME ":" FNR }' "${files[@]}")
if [ -n "$long" ]; then
  echo "FAIL: lines over 100 columns:"; head -20 <<<"$long"; exit 1
fi
echo "ok   ${#files[@]} files follow .clang-format, none over 100 columns"
