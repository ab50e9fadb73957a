#!/usr/bin/env bash
# Where a closed-loop action's server CPU goes, beside the raw stack's: for the
# ws-ceiling fan-out (1,000 connections; left out without CEILING) and each game (GAMES,
# default both) at TABLES tables (default 250), with the store off and then on a SQLite file
# of its own (STORES, default both; `QIPAI_STORE__SQLITE_SYNC` passes through), the
# server's user and kernel CPU (/proc/PID/stat) and its sendto/recvfrom calls (perf's
# syscall tracepoints, when perf is there) over an 8 s window inside a 12 s run, per input
# message (an action) and per delivered message.
#
#   CEILING=/path/to/ws-ceiling loadtest/syscalls.sh
#   BIN=target/debug TABLES=20 GAMES=tuolaji loadtest/syscalls.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)"
BIN=${BIN:-target/release}
CEILING=${CEILING:-}
TABLES=${TABLES:-250}
GAMES=${GAMES:-tuolaji xiangqi}
STORES=${STORES:-off sqlite}
PORT=$((20000 + RANDOM % 20000))
TICK=$(getconf CLK_TCK)

cpu() { # pid -> "utime stime" in clock ticks
  awk '{ print $14, $15 }' "/proc/$1/stat"
}

window() { # pid -> "user_s sys_s sendto recvfrom" over 8 s
  local pid=$1 u0 s0 u1 s1 calls
  read -r u0 s0 < <(cpu "$pid")
  if command -v perf >/dev/null; then
    calls=$(perf stat -x, -e syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom -p "$pid" \
      -- sleep 8 2>&1 | awk -F, '/sys_enter/ { printf "%s ", $1 }')
  else
    sleep 8
    calls="- -"
  fi
  read -r u1 s1 < <(cpu "$pid")
  echo "$(( (u1 - u0) )) $(( (s1 - s0) )) $calls"
}

finish() { # client pid, server pid: waits for the client, then stops the server
  wait "$1"
  kill "$2" 2>/dev/null || true
  wait "$2" 2>/dev/null || true
}

report() { # label inputs/s delivered/s "user sys sendto recvfrom"
  python3 - "$@" "$TICK" <<'PY'
import sys
label, ins, outs, w, tick = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4].split(), float(sys.argv[5])
user, sys_ = float(w[0]) / tick / 8, float(w[1]) / tick / 8
send = float(w[2]) / 8 if w[2] != "-" else float("nan")
recv = float(w[3]) / 8 if w[3] != "-" else float("nan")
print(f"| {label} | {ins:,.0f} | {outs / ins:.1f} | {user / ins * 1e6:.1f} | {sys_ / ins * 1e6:.1f} | "
      f"{send / ins:.2f} | {recv / ins:.2f} | {outs / send:.2f} |")
PY
}

measure() { # label, server pid, client pid, the client's JSON file
  local w rates
  w=$(window "$2")
  finish "$3" "$2"
  # ws-ceiling says sent/recv_per_s, qipai-loadtest actions/msgs_in_per_sec (its last line).
  rates=$(python3 -c "import json, sys; r = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); print(r.get('sent_per_s', r.get('actions_per_sec')), r.get('recv_per_s', r.get('msgs_in_per_sec')))" "$4")
  # shellcheck disable=SC2086
  report "$1" $rates "$w"
}

echo "| run | inputs/s | delivered per input | user µs per input | kernel µs per input | sendto per input | recvfrom per input | delivered per sendto |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"

if [ -n "$CEILING" ]; then
  "$CEILING" server --addr 127.0.0.1:$PORT --mode fanout4 --read-buf 4096 --max-secs 60 2>/dev/null &
  SP=$!
  sleep 0.5
  "$CEILING" client --addr 127.0.0.1:$PORT --mode fanout4 --conns 1000 --batch 250 --warmup 2 \
    --duration 10 --server-pid $SP >/tmp/qipai-syscalls-ceiling.json &
  CP=$!
  sleep 3
  measure "raw stack, fan-out 4" $SP $CP /tmp/qipai-syscalls-ceiling.json
fi

for store in $STORES; do for game in $GAMES; do
  url=
  [ "$store" = sqlite ] && url=$(mktemp -u /tmp/qipai-syscalls-XXXXXX.db)
  QIPAI_STORE__URL=$url QIPAI_SERVER__ADDR=127.0.0.1:$PORT RUST_LOG=warn \
    "$BIN/qipai-server" --config loadtest/closed-loop.toml >/dev/null 2>&1 &
  SP=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
  "$BIN/qipai-loadtest" --url "ws://127.0.0.1:$PORT/ws" --game $game --tables "$TABLES" --think 0 \
    --warmup 2 --duration 10 --quiet --json-only >/tmp/qipai-syscalls-$game.json 2>/dev/null &
  LP=$!
  sleep 4
  measure "$game, $TABLES tables, store $store" $SP $LP /tmp/qipai-syscalls-$game.json
  [ -n "$url" ] && rm -f "$url" "$url-wal" "$url-shm"
done; done
