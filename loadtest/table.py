#!/usr/bin/env python3
"""Markdown tables from loadtest/bench.sh results: python3 loadtest/table.py results/*.jsonl"""
import json
import sys


def ms(us):
    return f"{us / 1000:.2f}"


runs, ceilings, idle = [], [], []
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        row = json.loads(line)
        if "ceiling" in row:
            ceilings.append((row["label"], row["ceiling"]))
        elif "idle_connections" in row["run"]:
            idle.append((row["label"], row["run"]))
        else:
            runs.append((row["label"], row["run"]))

print("| run | game | tables | conns | think ms | actions/s | ok p50 / p99 / p99.9 / max (ms) "
      "| all seats p50 / p99 / p99.9 / max (ms) | msgs/s in | errors | games | server cores | RSS KiB/table | load test cores |")
print("|---|---|---:|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|")
for label, r in runs:
    a, s, srv = r["ack_us"], r["all_seats_us"], r.get("server") or {}
    think = r["think"]
    t = f'{think["min_ms"]}-{think["max_ms"]}' if think["min_ms"] != think["max_ms"] else str(think["min_ms"])
    print(f'| {label} | {r["game"]} | {r["tables"]} | {r["connections"]} | {t} | {r["actions_per_sec"]:,.0f} '
          f'| {ms(a["p50"])} / {ms(a["p99"])} / {ms(a["p999"])} / {ms(a["max"])} '
          f'| {ms(s["p50"])} / {ms(s["p99"])} / {ms(s["p999"])} / {ms(s["max"])} '
          f'| {r["msgs_in_per_sec"]:,.0f} | {r["conn_errors"]}+{r["protocol_errors"]} | {r["games_completed"]} '
          f'| {srv.get("cpu_cores", 0):.2f} | {srv.get("rss_per_table_kib", 0):.1f} | {r["loadtest_cores"]:.2f} |')
if ceilings:
    print()
    print("| ceiling run | conns | sent/s | delivered/s | p50 / p99 (ms) | server cores | client cores | machine busy cores | bytes/idle conn |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for label, c in ceilings:
        lat = c.get("lat_us") or {}
        print(f'| {label} | {c.get("conns_ok")} | {c.get("sent_per_s", 0):,.0f} | {c.get("recv_per_s", 0):,.0f} '
              f'| {ms(lat.get("p50", 0))} / {ms(lat.get("p99", 0))} | {c.get("server_cpu_cores", "")} '
              f'| {c.get("client_cpu_cores", "")} | {c.get("machine_busy_cores", "")} | {c.get("server_bytes_per_idle_conn", "")} |')
if idle:
    print()
    print("| idle run | conns | welcomed | errors | RSS before / after KiB | bytes per connection |")
    print("|---|---:|---:|---:|---|---:|")
    for label, r in idle:
        print(f'| {label} | {r["idle_connections"]} | {r["welcomed"]} | {r["conn_errors"]} '
              f'| {r["rss_before_kib"]} / {r["rss_after_kib"]} | {r["bytes_per_connection"]:,.0f} |')
