#!/usr/bin/env bash
# A throwaway PostgreSQL for the store tests: installs it with apt-get when missing, makes a
# cluster with initdb in a temporary directory, starts it on a free loopback port, and
# exports QIPAI_TEST_POSTGRES_URL for the tests. Source it (`. .ci/postgres.sh`); it stops
# the server and deletes the directory when the sourcing shell exits.
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user
# (created by the Debian package), otherwise to whoever runs this.

pg_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin; do
        if [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
    done
    return 1
}

if ! PG_BIN=$(pg_bin); then
    echo "== installing PostgreSQL (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(pg_bin)
fi

PG_DIR=$(mktemp -d /tmp/qipai-pg.XXXXXX)
PG_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)
if [ "$(id -u)" = 0 ]; then
    PG_USER=postgres
    chown postgres "$PG_DIR"
    pg_as() { runuser -u postgres -- "$@"; }
else
    PG_USER=$(id -un)
    pg_as() { "$@"; }
fi

pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" --auth=trust -E UTF8 --no-sync >/dev/null
pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=on" >/dev/null

pg_stop() {
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
}
trap pg_stop EXIT

export QIPAI_TEST_POSTGRES_URL="postgres://$PG_USER@127.0.0.1:$PG_PORT/postgres"
echo "== PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (QIPAI_TEST_POSTGRES_URL)"
