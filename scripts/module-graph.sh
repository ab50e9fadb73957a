#!/usr/bin/env bash
# Prints the module graph of server/src (which file uses which) and its import cycles; exits
# 1 when a cycle spans more than one folder of server/src (docs/server-layout.md).
# Usage: scripts/module-graph.sh [--cycles-only] [SRC_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/module_graph.py "$@"
