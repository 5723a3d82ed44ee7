#!/usr/bin/env bash
# tools/distributed.sh keeps Gloo's unencrypted traffic on loopback by default: a learner
# rank whose rendezvous is on another address is refused with one line, before anything is
# built or started, unless AZG_GLOO_TRUSTED_NETWORK=1 says the network is trusted.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
failures=0
out=$(AZG_GLOO_TRUSTED_NETWORK= bash "$root/tools/distributed.sh" learner-rank 127.0.0.1:6379 r configs/lignes.yaml \
  2 1 10.0.0.1:29500 2>&1 </dev/null)
status=$?
if [ $status = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "Gloo traffic is not encrypted.*AZG_GLOO_TRUSTED_NETWORK=1" <<<"$out"; then
  echo "ok   a rendezvous off loopback is refused: $out"
else
  echo "FAIL a rendezvous off loopback was not refused (status $status): $out"; failures=$((failures + 1))
fi
echo "$((1 - failures)) passed, $failures failed"
[ $failures = 0 ]
