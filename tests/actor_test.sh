#!/usr/bin/env bash
# azg actor against a redis-server of its own, with tests/actor_helper standing in for the
# learner: it waits for weights, sends games the helper decodes strictly, takes new
# weights by version while it plays, and is refused with one line under another config.
# Exit 77 (skipped) where redis-server is not installed.
set -u
azg=$1
helper=$2
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/tests/redis_fixture.sh" --appendonly no
config=$root/configs/lignes.yaml
sets=(selfplay.simulations=8 selfplay.cheap_simulations=4 selfplay.threads=1 selfplay.games_per_thread=2 net.blocks=1 net.channels=8)

# The actor starts before any weights, and waits.
"$azg" actor --redis "127.0.0.1:$port" --run t --config "$config" --set "${sets[@]}" --name a1 > "$work/actor.log" 2>&1 &
actor_pid=$!
pids+=($actor_pid)
# Up to 60 s for a line of the actor's.
actor_says() { local line=$1; wait_until 60 'grep -q -- "$line" "$work/actor.log"'; }
actor_says "waiting for the learner's first weights" || fail "the actor does not say it waits: $(cat "$work/actor.log")"
grep -q "games sent" "$work/actor.log" && fail "the actor sent games before any weights: $(cat "$work/actor.log")"
"$helper" publish "127.0.0.1:$port" t 0 "$config" "${sets[@]}" >/dev/null || fail "publish 0"
actor_says "games sent"
# New weights while it plays: it takes them by version.
"$helper" publish "127.0.0.1:$port" t 1 "$config" "${sets[@]}" >/dev/null || fail "publish 1"
actor_says "weights version 1" || fail "the actor did not take weights version 1: $(tail -2 "$work/actor.log")"
sleep 1.5
# kill -9 mid-game: only its unfinished games are lost; every game sent decodes whole.
kill -9 $actor_pid
wait $actor_pid 2>/dev/null
sent=$(grep -o '[0-9]* games sent' "$work/actor.log" | tail -1 | cut -d' ' -f1)
out=$("$helper" check "127.0.0.1:$port" t "$config" "${sets[@]}") || fail "a game in the stream does not decode: $out"
echo "actor log: last report ${sent} games sent; stream: $out"
games=${out%% games*}
[ "$games" -ge "${sent:-1}" ] 2>/dev/null || fail "the stream has $games games, the actor reported $sent sent"
[[ $out == *"1 actors"* ]] || fail "actors: $out"
[[ $out == *"newest weights 1" ]] || fail "no game with weights version 1: $out"

# An actor joining late starts from the newest weights; its thread count is its own.
late=$("$azg" actor --redis "127.0.0.1:$port" --run t --name late --threads 2 --games 1 --config "$config" \
  --set "${sets[@]}" 2>&1) || fail "the late actor: $late"
[[ $late == *"playing with weights version 1"* ]] || fail "the late actor did not start from version 1: $late"

# Another config: refused at start with one line.
err=$("$azg" actor --redis "127.0.0.1:$port" --run t --config "$config" --set "${sets[@]}" net.channels=16 --games 1 2>&1)
status=$?
[ $status = 2 ] || fail "another config: status $status"
[ "$(wc -l <<<"$err")" = 1 ] && [[ $err == *"differs from run 't'"* ]] || fail "another config: $err"
[ $failures = 0 ] && echo "PASS: azg actor" || exit 1
