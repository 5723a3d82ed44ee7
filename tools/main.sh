#!/usr/bin/env bash
# The main job: sets up (when needed), builds, then runs azg's demo for every game:
# a random game record and the single-thread environment benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/build.sh
azg=build/bin/azg
for game in $("$azg" games); do
  echo "== $game: a random game"
  "$azg" play-random --game "$game" --seed 1
  echo "== $game: environment benchmark"
  "$azg" bench env --game "$game" --seconds 2
done
