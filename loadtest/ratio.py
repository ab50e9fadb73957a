#!/usr/bin/env python3
"""The per-action figures from one `loadtest/bench.sh r` run (a .jsonl file): for the raw stack
(ws-ceiling) and each game, server CPU per action and per delivered message, the load
generator's CPU per action, and each game's efficiency per delivered message as a share of
the raw stack's (raw µs per message / game µs per message)."""
import json
import sys


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    ceiling = None
    games = []
    for row in rows:
        if "uptime" in row:
            print(f"# {row['label']}: {row['uptime'].strip()}")
        elif "ceiling" in row:
            c = row["ceiling"]
            ceiling = (row["label"], c["server_cpu_cores"], c["recv_per_s"], c["sent_per_s"],
                       c.get("client_cpu_cores", 0.0))
        elif "run" in row:
            games.append((row["label"], row["run"]))
    print("| run | actions/s | delivered msgs/s | server cores | server µs/action | "
          "server µs/delivered msg | loadtest µs/action | share of raw efficiency |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    raw_per_msg = None
    if ceiling:
        label, cores, recv, sent, client = ceiling
        raw_per_msg = cores / recv * 1e6 if recv else None
        print(f"| {label} | {sent:,.0f} | {recv:,.0f} | {cores:.2f} | "
              f"{cores / sent * 1e6 if sent else 0:.1f} | {raw_per_msg or 0:.1f} | "
              f"{client / sent * 1e6 if sent else 0:.1f} | 100 % |")
    for label, r in games:
        server = r.get("server") or {}
        cores = server.get("cpu_cores", 0.0)
        aps, mps = r["actions_per_sec"], r["msgs_in_per_sec"]
        per_action = cores / aps * 1e6 if aps else 0.0
        per_msg = cores / mps * 1e6 if mps else 0.0
        lt = r.get("loadtest_cores", 0.0) / aps * 1e6 if aps else 0.0
        share = f"{raw_per_msg / per_msg * 100:.0f} %" if raw_per_msg and per_msg else "—"
        print(f"| {label} | {aps:,.0f} | {mps:,.0f} | {cores:.2f} | {per_action:.1f} | "
              f"{per_msg:.1f} | {lt:.1f} | {share} |")


if __name__ == "__main__":
    main(sys.argv[1])
