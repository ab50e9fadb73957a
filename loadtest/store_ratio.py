#!/usr/bin/env python3
"""The store's cost from one `loadtest/bench.sh s` run (a .jsonl file): for each game and table
count, the throughput and server CPU per action with the store off, on SQLite and on
PostgreSQL, and each store's share of the store-off throughput and its extra CPU per action,
with the frames the clients received per action.
Exits 1 when a run is missing its figures or reported errors (a run that failed to start)."""
import json
import sys


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    runs = {}
    failed = []
    for row in rows:
        if "uptime" in row:
            print(f"# {row['label']}: {row['uptime'].strip()}")
            continue
        if not row["label"].startswith("s-"):
            continue
        _, game, tables, store = row["label"].split("-", 3)
        r = row.get("run")
        if not isinstance(r, dict) or not r.get("actions_per_sec") or r.get("protocol_errors") or r.get("errors"):
            failed.append(row["label"])
            continue
        runs[(game, int(tables), store)] = r
    print("| game, tables | store | actions/s | share of off | server µs/action | extra µs/action | frames/action |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game, tables in sorted({(g, t) for g, t, _ in runs}):
        off = runs.get((game, tables, "off"))
        for store in ("off", "sqlite", "postgres"):
            r = runs.get((game, tables, store))
            if r is None:
                continue
            aps = r["actions_per_sec"]
            cores = (r.get("server") or {}).get("cpu_cores", 0.0)
            per_action = cores / aps * 1e6
            share = extra = "—"
            if off and store != "off":
                share = f"{aps / off['actions_per_sec'] * 100:.0f} %"
                off_cores = (off.get("server") or {}).get("cpu_cores", 0.0)
                extra = f"{per_action - off_cores / off['actions_per_sec'] * 1e6:+.0f}"
            frames = r.get("frames_in_per_sec", r.get("msgs_in_per_sec", 0.0)) / aps
            print(f"| {game}, {tables} | {store} | {aps:,.0f} | {share} | {per_action:.0f} | {extra} | {frames:.1f} |")
    if failed:
        print(f"runs without figures: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
