#!/usr/bin/env bash
# The "Performance" figures of README: qipai-server under qipai-loadtest, and the raw
# ceiling of the same stack (../shared/bench/ws-ceiling) measured in the same session.
# Everything runs on 127.0.0.1, each run under `timeout`, one at a time: b, c and d take
# about 5 minutes, a about 8.
#
#   CEILING=/path/to/ws-ceiling loadtest/bench.sh [points...]    # points: b a c d (default: all)
#   CEILING=/path/to/ws-ceiling loadtest/bench.sh r              # per-action ratios against the raw stack, ~1 min
#   . .ci/postgres.sh; loadtest/bench.sh s                        # the store's cost: off, SQLite, PostgreSQL, 3 rounds, ~9 min
#   ROUNDS=1 loadtest/bench.sh s                                  # one round (s defaults to 3, h to 1)
#   SHORT=1 LT=target/debug/qipai-loadtest loadtest/bench.sh s    # the same, a few tables for a few seconds (CI)
#   . .ci/postgres.sh; loadtest/bench.sh h                        # the store at human pace, 4,750 Tuolaji tables, ~15 min
#   TABLES=1000 loadtest/bench.sh h                               # the same with fewer tables (comparing builds), ~5 min
#
# Writes one JSON line per run to loadtest/results/<stamp>.jsonl (prefixed by a label).
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)"
LT=${LT:-target/release/qipai-loadtest}   # the server is the `qipai-server` beside it
CEILING=${CEILING:-}
OUT=${BENCH_OUT:-loadtest/results/$(date -u +%Y-%m-%dT%H%M%S).jsonl}
mkdir -p loadtest/results
POINTS=${*:-b a c d}
ONLY=${ONLY:-.}   # a regex: only the runs whose label matches

run() { # label, then qipai-loadtest arguments
  local label=$1; shift
  [[ $label =~ $ONLY ]] || return 0
  echo "== $label: $*" >&2
  local line
  line=$(timeout 300 "$LT" --spawn-server --json-only --quiet "$@" | tail -1) || true
  echo "{\"label\":\"$label\",\"run\":$line}" | tee -a "$OUT"
}

ceiling() { # label, server mode, then client arguments
  local label=$1 mode=$2; shift 2
  [ -n "$CEILING" ] || return 0
  [[ $label =~ $ONLY ]] || return 0
  local port=9187
  "$CEILING" server --addr 127.0.0.1:$port --mode "$mode" --read-buf 4096 --max-secs 200 2>/dev/null &
  local sp=$!
  sleep 0.5
  echo "== $label: ceiling $mode $*" >&2
  local line
  line=$(timeout 200 "$CEILING" client --addr 127.0.0.1:$port --mode "$mode" --server-pid $sp "$@" | tail -1) || true
  kill $sp 2>/dev/null || true
  wait $sp 2>/dev/null || true
  echo "{\"label\":\"$label\",\"ceiling\":$line}" | tee -a "$OUT"
}

# A new empty PostgreSQL database for one run, its URL printed (a run must not reopen the
# rooms an earlier run left open in a shared database); `drop_pg URL` removes it.
fresh_pg() {
  local db
  db=qipai_bench_$(date +%s%N)
  psql "$QIPAI_TEST_POSTGRES_URL" -qc "CREATE DATABASE $db" >/dev/null
  echo "${QIPAI_TEST_POSTGRES_URL%/*}/$db"
}
drop_pg() {
  psql "$QIPAI_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS ${1##*/} WITH (FORCE)" >/dev/null || true
}

# One run with the store off, one on a new SQLite file and, when QIPAI_TEST_POSTGRES_URL is
# set, one on a new PostgreSQL database, back to back: labels PREFIX-off, -sqlite, -postgres.
# ROUNDS times over, alternating (off, SQLite, PostgreSQL, off, …), so that the machine's
# drift between runs (10–20 % here) falls on every store alike; store_ratio.py reports each
# store's median round and the spread.
each_store() { # label prefix, then qipai-loadtest arguments
  local prefix=$1 db pg round; shift
  for ((round = 1; round <= rounds; round++)); do
    QIPAI_STORE__URL= run "$prefix-off" "$@"
    db=$(mktemp -u /tmp/qipai-bench-XXXXXX.db)
    QIPAI_STORE__URL=$db run "$prefix-sqlite" "$@"
    rm -f "$db" "$db-wal" "$db-shm"
    if [ -n "${QIPAI_TEST_POSTGRES_URL:-}" ]; then
      pg=$(fresh_pg)
      QIPAI_STORE__URL=$pg run "$prefix-postgres" "$@"
      drop_pg "$pg"
    fi
  done
}

CLOSED=(--server-config loadtest/closed-loop.toml --think 0 --warmup 3 --duration 10)
HUMAN=(--think 1000-3000 --ramp 250 --warmup 15 --duration 20)
# Tuolaji tables deal 162 cards 40 ms apart, each card an event to all four seats: tables
# starting together would all deal at once (100 messages/s per table), which no real
# evening does. 50 new tables a second keeps about 330 tables dealing at a time.
HUMAN_TL=(--think 1000-3000 --ramp 50 --warmup 15 --duration 20)

for p in $POINTS; do case $p in
  s) # the store's cost: each game at 20 and 250 tables in closed loop with the store off,
    # on SQLite (a new file each run) and on PostgreSQL (a new database each run in the
    # server at QIPAI_TEST_POSTGRES_URL, set by
    # `. .ci/postgres.sh`; without it those runs are left out), back to back, then the
    # ratios to the store off (loadtest/store_ratio.py).
    tables=(20 250) closed=("${CLOSED[@]}")
    if [ -n "${SHORT:-}" ]; then
      tables=(4) closed=(--server-config loadtest/closed-loop.toml --think 0 --warmup 1 --duration 2)
    fi
    rounds=${ROUNDS:-3}
    echo "{\"label\":\"s-load\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    for g in xiangqi tuolaji; do for t in "${tables[@]}"; do
      each_store "s-$g-$t" --game "$g" --tables "$t" "${closed[@]}"
    done; done
    echo "{\"label\":\"s-load-after\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    python3 loadtest/store_ratio.py "$OUT"
    ;;
  h) # the store at human pace: 4,750 Tuolaji tables with the store off, then on SQLite
    # (and PostgreSQL when QIPAI_TEST_POSTGRES_URL is set), back to back: p99 action -> all
    # seats, memory per table, and the server's commit time (loadtest/store_ratio.py).
    # SHORT: xiangqi, whose first move comes at once (a Tuolaji deal alone outlasts the run).
    g=tuolaji tables=${TABLES:-4750} human=("${HUMAN_TL[@]}")
    if [ -n "${SHORT:-}" ]; then
      g=xiangqi tables=8 human=(--think 100-300 --ramp 50 --warmup 1 --duration 2)
    fi
    rounds=${ROUNDS:-1}
    echo "{\"label\":\"h-load\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    each_store "h-$g-$tables" --game "$g" --tables "$tables" "${human[@]}"
    echo "{\"label\":\"h-load-after\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    python3 loadtest/store_ratio.py "$OUT"
    ;;
  r) # the raw stack and both games back to back at 250 tables in closed loop
    # (store off), then server CPU per action and per delivered message, and the ratio to
    # the raw stack's CPU per delivered message (loadtest/ratio.py).
    echo "{\"label\":\"r-load\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    ceiling r-ceiling-fanout4-1000 fanout4 --conns 1000 --batch 250 --duration 10
    QIPAI_STORE__URL= run r-tuolaji-closed-250 --game tuolaji --tables 250 "${CLOSED[@]}"
    QIPAI_STORE__URL= run r-xiangqi-closed-250 --game xiangqi --tables 250 "${CLOSED[@]}"
    echo "{\"label\":\"r-load-after\",\"uptime\":\"$(uptime)\"}" >>"$OUT"
    python3 loadtest/ratio.py "$OUT"
    ;;
  b) # closed loop at 1,000 tables against the fan-out ceiling at the same connection count
    ceiling b-ceiling-fanout4-4000 fanout4 --conns 4000 --batch 250 --duration 10
    run b-tuolaji-closed-1000 --game tuolaji --tables 1000 "${CLOSED[@]}"
    ceiling b-ceiling-fanout4-4000-again fanout4 --conns 4000 --batch 250 --duration 10
    ceiling b-ceiling-fanout4-2000 fanout4 --conns 2000 --batch 250 --duration 10
    run b-xiangqi-closed-1000 --game xiangqi --tables 1000 "${CLOSED[@]}"
    ;;
  a) # human pace: the most tables with p99 action -> all seats <= 5 ms
    for t in 1000 2500 4750; do run a-tuolaji-human-$t --game tuolaji --tables $t "${HUMAN_TL[@]}"; done
    # the same with the server's WebSocket pings every 10 minutes instead of 5 s
    QIPAI_SERVER__PING_INTERVAL_MS=600000 run a-tuolaji-human-4750-ping-600s --game tuolaji --tables 4750 "${HUMAN_TL[@]}"
    for t in 2500 9500; do run a-xiangqi-human-$t --game xiangqi --tables $t "${HUMAN[@]}"; done
    ;;
  c) # memory per idle connection
    run c-idle-10000 --idle 10000 --settle 3 --duration 2
    ceiling c-ceiling-idle-10000 echo --idle --conns 10000 --batch 250 --duration 6 --settle 3
    ;;
  d) # scaling, the smaller points (the large ones are a and b)
    run d-tuolaji-human-100 --game tuolaji --tables 100 "${HUMAN_TL[@]}"
    run d-tuolaji-closed-100 --game tuolaji --tables 100 "${CLOSED[@]}"
    run d-tuolaji-closed-4750 --game tuolaji --tables 4750 --ramp 250 "${CLOSED[@]}"
    ;;
esac; done
echo "results: $OUT" >&2
