#!/usr/bin/env bash
# A throwaway Redis for the cluster tests: installs redis-server with apt-get when missing,
# starts it on a free loopback port in a temporary directory (no persistence), and exports
# QIPAI_TEST_REDIS_URL. Source it (`. .ci/redis.sh`); `redis_stop` stops it and deletes the
# directory (.ci/run calls it at exit, next to PostgreSQL's).

if ! command -v redis-server >/dev/null 2>&1; then
    echo "== installing Redis (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq redis-server >/dev/null
fi

REDIS_DIR=$(mktemp -d /tmp/qipai-redis.XXXXXX)
REDIS_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 56379)
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$REDIS_DIR" --save '' \
    --appendonly no --daemonize yes --pidfile "$REDIS_DIR/redis.pid" \
    --logfile "$REDIS_DIR/log" >/dev/null
for _ in $(seq 50); do
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
done

redis_stop() {
    redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
    rm -rf "$REDIS_DIR"
}

export QIPAI_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/"
echo "== Redis $(redis-server --version | awk '{print $3}') on 127.0.0.1:$REDIS_PORT (QIPAI_TEST_REDIS_URL)"
