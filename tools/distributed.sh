#!/usr/bin/env bash
# The start-up steps of a distributed run, one machine at a time (docs/distributed.md).
# Each role sets up and builds azg first (tools/setup.sh, tools/build.sh).
#   bash tools/distributed.sh redis   [PORT] [BIND]          Redis with AOF, for the run's data plane
#   bash tools/distributed.sh learner HOST:PORT RUN CONFIG [KEY=VALUE...]
#       (AZG_LEARNERS=N: N data-parallel learner processes on this machine)
#   bash tools/distributed.sh learner-rank HOST:PORT RUN CONFIG LEARNERS RANK RENDEZVOUS [KEY=VALUE...]
#       one rank of learners; RENDEZVOUS is HOST:PORT on rank 0's machine. Gloo's traffic
#       (gradients, the rendezvous) is not encrypted, so ranks bind to loopback: a
#       rendezvous on another address is refused unless AZG_GLOO_TRUSTED_NETWORK=1 says the
#       network between the learners is one you trust (a private link or a VPN such as
#       WireGuard); the rank then binds to AZG_GLOO_BIND (default: the host's name).
#   bash tools/distributed.sh actor   HOST:PORT RUN CONFIG [THREADS] [KEY=VALUE...]
#   bash tools/distributed.sh tunnel  SSH_HOST [LOCAL_PORT] [REMOTE_PORT]
# The password, where Redis has one, is in AZG_REDIS_PASSWORD on every machine (never on a
# command line, where ps shows it). hiredis 0.14 has no TLS: across untrusted networks,
# reach Redis through the tunnel and give azg 127.0.0.1:LOCAL_PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
role=${1:-}
shift || true
build() { bash tools/setup.sh >&2 && bash tools/build.sh >/dev/null; }
case "$role" in
  redis)
    port=${1:-6379}
    bind=${2:-127.0.0.1}
    if ! command -v redis-server >/dev/null; then  # this machine needs Redis only
      sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
      "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends redis-server
    fi
    mkdir -p runs/redis
    args=(--port "$port" --bind "$bind" --dir "$PWD/runs/redis" --appendonly yes --appendfsync everysec
          --save '' --protected-mode yes)
    if [ -n "${AZG_REDIS_PASSWORD:-}" ]; then
      # Through a config on stdin, so the password stays off the process list.
      printf 'requirepass %s\n' "$AZG_REDIS_PASSWORD" | exec redis-server - "${args[@]}"
    fi
    [ "$bind" = 127.0.0.1 ] || { echo "distributed.sh: Redis on $bind needs a password (AZG_REDIS_PASSWORD)" >&2; exit 2; }
    exec redis-server "${args[@]}"
    ;;
  learner)
    [ $# -ge 3 ] || { echo "usage: bash tools/distributed.sh learner HOST:PORT RUN CONFIG [KEY=VALUE...]" >&2; exit 2; }
    redis=$1 run=$2 config=$3
    shift 3
    build
    exec build/bin/azg learner --redis "$redis" --run "$run" --learners "${AZG_LEARNERS:-1}" --config "$config" \
      ${1:+--set "$@"}
    ;;
  learner-rank)
    [ $# -ge 6 ] || { echo "usage: bash tools/distributed.sh learner-rank HOST:PORT RUN CONFIG LEARNERS RANK RENDEZVOUS [KEY=VALUE...]" >&2; exit 2; }
    redis=$1 run=$2 config=$3 learners=$4 rank=$5 rendezvous=$6
    shift 6
    rendezvous_host=${rendezvous%:*}
    bind=127.0.0.1
    case "$rendezvous_host" in
      127.*|localhost|'[::1]'|::1) ;;
      *)
        if [ "${AZG_GLOO_TRUSTED_NETWORK:-0}" != 1 ]; then
          echo "distributed.sh: Gloo traffic is not encrypted; a rendezvous on $rendezvous_host needs AZG_GLOO_TRUSTED_NETWORK=1 (a network you trust: a private link or a VPN), else keep the ranks on one machine (127.0.0.1)" >&2
          exit 2
        fi
        bind=${AZG_GLOO_BIND:-$(hostname)}
        ;;
    esac
    build
    exec build/bin/azg learner --redis "$redis" --run "$run" --learners "$learners" --rank "$rank" \
      --rendezvous "$rendezvous" --bind "$bind" --config "$config" ${1:+--set "$@"}
    ;;
  actor)
    [ $# -ge 3 ] || { echo "usage: bash tools/distributed.sh actor HOST:PORT RUN CONFIG [THREADS] [KEY=VALUE...]" >&2; exit 2; }
    redis=$1 run=$2 config=$3
    threads=${4:-$(nproc)}
    shift 3
    shift || true
    build
    exec build/bin/azg actor --redis "$redis" --run "$run" --threads "$threads" --config "$config" ${1:+--set "$@"}
    ;;
  tunnel)
    [ $# -ge 1 ] || { echo "usage: bash tools/distributed.sh tunnel SSH_HOST [LOCAL_PORT] [REMOTE_PORT]" >&2; exit 2; }
    exec ssh -N -L "${2:-6379}:127.0.0.1:${3:-6379}" "$1"
    ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
