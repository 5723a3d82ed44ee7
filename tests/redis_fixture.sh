# Sourced by the shell tests of distributed runs: a redis-server of the test's own on a
# free port of 127.0.0.1, in a scratch directory removed at exit with every process the
# test registers in `pids`. Exits 77 (skipped) where redis-server is not installed.
#   source "$root/tests/redis_fixture.sh" [REDIS-SERVER OPTION...]
# gives $work, $port, free_port, wait_until (tests/wait_until.sh), and fail with its count
# in $failures.
source "$(dirname "${BASH_SOURCE[0]}")/wait_until.sh"
command -v redis-server >/dev/null || { echo "SKIPPED: no redis-server (bash tools/setup.sh installs it)"; exit 77; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
work=$(mktemp -d)
port=$(free_port)
redis-server --port "$port" --bind 127.0.0.1 --dir "$work" --save '' --daemonize no --loglevel warning "$@" \
  > "$work/redis.log" 2>&1 &
redis_pid=$!
pids=()
# A test's own clean-up, where it needs one, goes in a function named on_exit.
trap 'declare -F on_exit >/dev/null && on_exit; kill -9 ${pids[@]+"${pids[@]}"} 2>/dev/null; kill $redis_pid 2>/dev/null; rm -rf "$work"' EXIT
wait_until 10 'redis-cli -p "$port" ping >/dev/null 2>&1'
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
