#!/usr/bin/env bash
# The user-space switch of scripts/netns-cluster (scripts/netns-switch), which holds the frames
# where the kernel has no netem: two hosts joined by it with 1 ms each way must see a TCP round
# trip of at least 2 ms (the switch passing frames on at once would give about 0.1 ms), and with
# no delay they must still reach each other. Skipped (status 77) where this machine does not let
# us make network namespaces.
#   tests/netns-switch.sh NETNS_CLUSTER
set -uo pipefail
netns="$1"
if ! reason=$("$netns" check 2>&1); then
    echo "skipped: $reason"
    exit 77
fi
trap '"$netns" down' EXIT
for delay in 0 1; do
    "$netns" up 2 --user-switch --delay "$delay" || exit 1
    rtt=$(timeout 60 "$netns" rtt) || { echo "FAILED: no TCP round trip between the hosts at $delay ms"; exit 1; }
    echo "$delay ms each way: a round trip of $rtt ms"
    if ! awk -v rtt="$rtt" -v delay="$delay" 'BEGIN { exit !(rtt >= 2 * delay) }'; then
        echo "FAILED: a round trip of $rtt ms over links that hold frames $delay ms each way"
        exit 1
    fi
done
