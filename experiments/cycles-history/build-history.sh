#!/usr/bin/env bash
# The worked example of docs/cycles.md "History over commits": net_ping's
# cycle counts at a few firmware commits of this repository, with the
# current leon3vp and the cycle golden's scenario, into history.csv and
# history.png beside this script.
#
#   experiments/cycles-history/build-history.sh [BUILD_DIR]   (default build/)
#
# Each commit's firmware is exported with `git archive` into a temporary
# directory (the work tree is not touched), net_ping is built with the
# firmware's own CMake project, run as testbenches/cycles/golden/net_ping.json
# says, and added with scripts/cycles-history add.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$(cd "${1:-$REPO/build}" && pwd)
OUT="$REPO/experiments/cycles-history"
VP="$BUILD/sim/leon3vp"
# before the second hardening round; its stack changes; its fixes near the tuned
# layout; the entropy mix per loop; the hot layout restored
COMMITS="db35827^ db35827 88c0883 c3cf31a 919ddf4"
TMP=$(mktemp -d /tmp/cycles-history.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
rm -f "$OUT/history.csv"
for c in $COMMITS; do
  h=$(git -C "$REPO" rev-parse --short=10 "$c")
  mkdir -p "$TMP/$h"
  git -C "$REPO" archive "$h" firmware scripts/cmake | tar -x -C "$TMP/$h"
  cmake -S "$TMP/$h/firmware" -B "$TMP/$h/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$TMP/$h/scripts/cmake/sparc-leon3.cmake" -DNET_ZERO_COPY=ON \
    -DLWIP_DIR="$BUILD/_deps/lwip-2.1.3" >"$TMP/$h/cmake.log"
  cmake --build "$TMP/$h/build" --target net_ping >"$TMP/$h/build.log"
  "$VP" -q --energy leon3-90nm-estimate --scenario "$REPO/testbenches/cycles/scenarios/ping.scenario.json" \
    --fw-param count=8 --max-time 10s --uart-out /dev/null --stats "$TMP/$h/net_ping.json" \
    "$TMP/$h/build/net_ping.elf"
  "$REPO/scripts/cycles-history" add --history "$OUT/history.csv" --repo "$REPO" --commit "$h" \
    --stats "net_ping=$TMP/$h/net_ping.json" --elf "$TMP/$h/build/net_ping.elf"
done
"$REPO/scripts/cycles-history" plot --history "$OUT/history.csv" --out "$REPO/docs/img/cycles-history.png" \
  --program net_ping --relative --regions 'net_rx,net_tx,net_timer,net.driver,net.ipchk,net.l4chk,net.proto'
