#!/usr/bin/env bash
# Checks deploy/ as far as this machine allows (CI runs it: .ci/run): the systemd unit with
# `systemd-analyze verify`, the container file built by the first working builder (podman,
# docker, buildah), the Caddyfile with caddy when installed. What cannot be
# checked here is printed as SKIPPED with the reason; what is checked must pass.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- the systemd unit"
if ! command -v systemd-analyze >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y --no-install-recommends systemd >/dev/null 2>&1 || true
fi
if command -v systemd-analyze >/dev/null; then
    # verify also checks that ExecStart names an executable: the one built here, else a
    # stand-in, at the path the unit names.
    bin=$PWD/target/debug/qipai-server
    [ -x "$bin" ] || bin=/bin/true
    sed "s|^ExecStart=/usr/local/bin/qipai-server|ExecStart=$bin|" deploy/qipai.service \
        >"$work/qipai.service"
    out=$(systemd-analyze verify "$work/qipai.service" 2>&1) || { echo "$out"; exit 1; }
    # verify reports unknown keys and bad values as warnings with a zero status.
    if [ -n "$out" ]; then
        echo "$out"
        exit 1
    fi
    echo "systemd-analyze verify deploy/qipai.service: ok"
    systemd-analyze security --offline=yes "$work/qipai.service" 2>/dev/null | tail -1 || true
else
    echo "SKIPPED: systemd-analyze verify: systemd-analyze is missing and could not be installed"
fi

echo "-- the container file"
builder=""
why=""
for tool in podman docker buildah; do
    if ! command -v "$tool" >/dev/null; then
        why="$why $tool: not installed;"
    elif "$tool" info >/dev/null 2>&1; then
        builder=$tool
        break
    else
        why="$why $tool: installed but '$tool info' fails (no daemon or no rights);"
    fi
done
if [ -n "$builder" ]; then
    "$builder" build -f deploy/Containerfile -t qipai-ci-check .
    echo "$builder build -f deploy/Containerfile: ok"
else
    echo "SKIPPED: container build: no working builder:$why"
fi

echo "-- the reverse-proxy examples"
if command -v caddy >/dev/null; then
    caddy validate --adapter caddyfile --config deploy/Caddyfile
else
    echo "SKIPPED: caddy validate deploy/Caddyfile: caddy is not installed"
fi
echo "SKIPPED: nginx -t on deploy/nginx.conf: it names the site's certificates, which CI has not"
