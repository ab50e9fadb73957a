#!/usr/bin/env bash
# The soak: an hour of mixed human-pace load (Tuolaji, xiangqi and draughts tables in turn)
# against one qipai-server with its SQLite store, four attacks from another loopback address
# at the same time (rooms, pings, half-frames, list-rooms; `qipai-loadtest --attack-only`,
# niced), and a SIGKILL and restart every ten minutes. Every 5 s it samples the server's RSS,
# open descriptors, threads and the store's size; each period's load run gives the reference
# players' p99 (action to every seat). It fails when a period's players saw an error, when
# the server does not come back after a kill, or when the store holds fewer steps or records
# after a restart than at the kill (nothing written is lost).
#
#   cargo build --release -p qipai-server -p qipai-loadtest
#   loadtest/soak.sh                               # 60 min, a kill every 10 min, 300 tables
#   SOAK_SECONDS=600 KILL_EVERY_SECONDS=120 TABLES=100 loadtest/soak.sh
#   QIPAI_BIN_DIR=target/debug loadtest/soak.sh --short   # CI: 60 s, a kill every 20 s, 20 tables
#
# Writes loadtest/results/soak-<stamp>.csv (the samples), .jsonl (each period's load run) and
# .log (the server's warnings and errors)
# and prints the summary of loadtest/soak_report.py, which also draws the SVG named by
# SOAK_SVG (docs/performance/ keeps the hour's).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${QIPAI_BIN_DIR:-target/release}
for b in qipai-server qipai-loadtest; do
    [ -x "$BIN/$b" ] || { echo "$BIN/$b is missing: cargo build --release -p qipai-server -p qipai-loadtest" >&2; exit 2; }
done
TOTAL=${SOAK_SECONDS:-3600}
PERIOD=${KILL_EVERY_SECONDS:-600}
TABLES=${TABLES:-300}
RAMP=20
if [ "${1:-}" = --short ]; then
    TOTAL=60 PERIOD=20 TABLES=20 RAMP=50
fi
ulimit -n "$(ulimit -Hn)"
WORK=$(mktemp -d /tmp/qipai-soak.XXXXXX)
STAMP=$(date -u +%Y-%m-%dT%H%M%S)
mkdir -p loadtest/results
CSV=${SOAK_OUT:-loadtest/results/soak-$STAMP}.csv
RUNS=${SOAK_OUT:-loadtest/results/soak-$STAMP}.jsonl
# The server's log (warnings and errors, every restart appended), kept beside the samples.
LOG=${SOAK_OUT:-loadtest/results/soak-$STAMP}.log
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
URL=ws://127.0.0.1:$PORT/ws
DB=$WORK/qipai.db
export QIPAI_SERVER__ADDR=127.0.0.1:$PORT QIPAI_STORE__URL=$DB
SERVER=
SAMPLER=
ATTACKERS=()

stop_all() {
    for p in "${ATTACKERS[@]}" $SAMPLER $SERVER; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap stop_all EXIT

healthy() { # waits up to 30 s for /healthz to answer 200
    python3 - "$PORT" <<'EOF'
import sys, time, urllib.request
for _ in range(300):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1).status == 200:
            sys.exit(0)
    except Exception:
        pass
    time.sleep(0.1)
sys.exit(1)
EOF
}

counts() { # "steps records" in the store file
    python3 - "$DB" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=30)
steps = c.execute("SELECT count(*) FROM steps").fetchone()[0]
records = c.execute("SELECT count(*) FROM records").fetchone()[0]
print(steps, records)
EOF
}

start_server() {
    RUST_LOG=${RUST_LOG:-warn} "$BIN/qipai-server" >>"$LOG" 2>&1 &
    SERVER=$!
    echo "$SERVER" >"$WORK/server.pid"
    healthy || { echo "soak: the server did not come up; its log:" >&2; tail -20 "$LOG" >&2; exit 1; }
}

echo "t_s,pid,rss_kib,fds,threads,store_bytes" >"$CSV"
(
    start=$(date +%s)
    while sleep 5; do
        pid=$(cat "$WORK/server.pid" 2>/dev/null) || continue
        [ -r "/proc/$pid/status" ] || continue
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null) || continue
        threads=$(awk '/^Threads/ {print $2}' "/proc/$pid/status" 2>/dev/null) || continue
        fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
        bytes=$(cat "$DB" "$DB-wal" 2>/dev/null | wc -c)
        echo "$(( $(date +%s) - start )),$pid,${rss:-0},$fds,${threads:-0},$bytes" >>"$CSV"
    done
) &
SAMPLER=$!

failed=0
elapsed=0
period=0
start_server
while [ "$elapsed" -lt "$TOTAL" ]; do
    period=$((period + 1))
    ATTACKERS=()
    for kind in rooms pings half-frames list-rooms; do
        # The attacker stops when its stdin closes: at the period's end, or when killed.
        nice -n 19 "$BIN/qipai-loadtest" --attack-only "$kind" --url "$URL" < <(sleep "$PERIOD") >/dev/null 2>&1 &
        ATTACKERS+=($!)
    done
    ramp_s=$(( TABLES / RAMP + 1 ))
    measured=$(( PERIOD - ramp_s - 5 ))
    [ "$measured" -ge 2 ] || measured=2
    line=$(timeout $((PERIOD + 60)) "$BIN/qipai-loadtest" --url "$URL" --server-pid "$SERVER" --game mix \
        --tables "$TABLES" --think 1000-3000 --ramp "$RAMP" --warmup 3 --duration "$measured" \
        --json-only --quiet | tail -1) || line='{}'
    echo "{\"period\":$period,\"t_s\":$elapsed,\"run\":$line}" | tee -a "$RUNS"
    for p in "${ATTACKERS[@]}"; do kill "$p" 2>/dev/null || true; done
    before=$(counts)
    kill -9 "$SERVER"
    wait "$SERVER" 2>/dev/null || true
    at_kill=$(counts)
    start_server
    after=$(counts)
    echo "soak: period $period: store (steps records) before the kill $before, at the kill $at_kill, after the restart $after" >&2
    read -r ks kr <<<"$at_kill"
    read -r as ar <<<"$after"
    if [ "$as" -lt "$ks" ] || [ "$ar" -lt "$kr" ]; then
        echo "soak: the restart lost steps or records" >&2
        failed=1
    fi
    elapsed=$((elapsed + PERIOD))
done
python3 loadtest/soak_report.py "$CSV" "$RUNS" ${SOAK_SVG:+--svg "$SOAK_SVG"} || failed=1
exit $failed
