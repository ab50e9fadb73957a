#!/usr/bin/env bash
# Server instructions per action, which do not depend on the machine's load: qipai-server
# under callgrind (store off), a closed loop of qipai-loadtest against it; after a warm-up
# the counters are zeroed, and after the window dumped; the server's own /metrics counts the
# actions and frames of the window. Prints one JSON line; the profile stays in $OUT.
#
#   BIN=target-rel/release loadtest/callgrind.sh tuolaji|xiangqi [tables] [warm-up s] [window s]
#
# BIN: a release build with line tables (for callgrind_annotate), e.g.
#   CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=target-rel \
#     cargo build --release -p qipai-server -p qipai-loadtest
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${1:-tuolaji}
TABLES=${2:-20}
WARM=${3:-20}
WINDOW=${4:-40}
BIN=${BIN:-target/release}
OUT=${OUT:-/tmp/qipai-callgrind}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"

metric() { # name -> value from /metrics
  curl -s "http://127.0.0.1:$PORT/metrics" | awk -v n="qipai_$1" '$1 == n { print $2 }'
}

QIPAI_STORE__URL= QIPAI_SERVER__ADDR=127.0.0.1:$PORT RUST_LOG=warn \
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$GAME.%p.out" \
  "$BIN/qipai-server" --config loadtest/closed-loop.toml 2>"$OUT/$GAME.valgrind.log" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; kill ${LOAD:-} 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break
  sleep 0.5
done
"$BIN/qipai-loadtest" --url "ws://127.0.0.1:$PORT/ws" --game "$GAME" --tables "$TABLES" \
  --think 0 --ramp 1000 --warmup $((WARM + WINDOW + 30)) --duration 1 --quiet --json-only \
  --seed 1 >/dev/null 2>&1 &
LOAD=$!
sleep "$WARM"
callgrind_control -z $SERVER >/dev/null
a0=$(metric actions_total); fo0=$(metric frames_out_total); fi0=$(metric frames_in_total)
sleep "$WINDOW"
callgrind_control -d "window" $SERVER >/dev/null
a1=$(metric actions_total); fo1=$(metric frames_out_total); fi1=$(metric frames_in_total)
kill $LOAD 2>/dev/null || true
kill -INT $SERVER
wait $SERVER 2>/dev/null || true
# The window's dump is the file whose name ends in .1 (the zeroing leaves no dump).
FILE=$(ls -t "$OUT/$GAME.$SERVER.out".* 2>/dev/null | grep -v '\.out$' | head -1 || true)
[ -n "$FILE" ] || FILE=$(ls -t "$OUT/$GAME.$SERVER.out"* | head -1)
IR=$(callgrind_annotate "$FILE" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
A=$((a1 - a0)); FO=$((fo1 - fo0)); FI=$((fi1 - fi0))
echo "{\"game\":\"$GAME\",\"tables\":$TABLES,\"window_s\":$WINDOW,\"actions\":$A,\"frames_out\":$FO,\"frames_in\":$FI,\"instructions\":$IR,\"per_action\":$((IR / (A > 0 ? A : 1))),\"per_frame_out\":$((IR / (FO > 0 ? FO : 1))),\"profile\":\"$FILE\"}"
