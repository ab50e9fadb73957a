#!/usr/bin/env python3
"""The store's cost from one `loadtest/bench.sh s` (or `h`) run (a .jsonl file).

`s`, closed loop: for each game and table count, the throughput and server CPU per action
with the store off, on SQLite and on PostgreSQL, each store's share of the store-off
throughput and its extra CPU per action, the frames the clients received per action, and the
server's commit time (p50/p99 read off `qipai_store_commit_seconds`' buckets, so "at most").
A second table splits each run's machine time per action (every core's time over actions/s):
the server's rooms and connections, SQLite's own thread, the load generator and the rest of
the machine, and the time the machine stood idle; beside the store-off row, the budget the
issue's 90 % share leaves a store (a ninth of the store-off machine time per action).
`h`, human pace: p99 from an action to every seat with the store off and on, their ratio,
memory per table and the commit time beside it.
With several rounds (`ROUNDS`), each store's figures are those of its median round (by
actions/s in closed loop, by p99 at human pace), and a column gives the rounds' spread.
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
        if not row["label"].startswith(("s-", "h-")):
            continue
        point, game, tables, store = row["label"].split("-", 3)
        r = row.get("run")
        if not isinstance(r, dict) or not r.get("actions_per_sec") or r.get("protocol_errors") or r.get("errors"):
            failed.append(row["label"])
            continue
        runs.setdefault((point, game, int(tables), store), []).append(r)
    closed = {k[1:]: median(rs, lambda r: r["actions_per_sec"]) for k, rs in runs.items() if k[0] == "s"}
    human = {k[1:]: median(rs, lambda r: r["all_seats_us"]["p99"]) for k, rs in runs.items() if k[0] == "h"}
    if closed:
        closed_loop(closed)
    if human:
        human_pace(human)
    if failed:
        print(f"runs without figures: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def median(rounds, key):
    """The round whose `key` is the median (the lower middle of an even count), with the
    rounds' range of `key` and their count beside it, for the spread column."""
    ordered = sorted(rounds, key=key)
    chosen = dict(ordered[(len(ordered) - 1) // 2])
    chosen["_rounds"] = (len(ordered), key(ordered[0]), key(ordered[-1]))
    return chosen


def spread(r, scale=1.0, fmt="{:,.0f}"):
    """The rounds' range, "n: lo–hi", or a dash for a single round."""
    n, lo, hi = r["_rounds"]
    if n == 1:
        return "—"
    return f"{n}: {fmt.format(lo * scale)}–{fmt.format(hi * scale)}"


def commit_ms(r):
    """The commit time's p50 and p99 in ms, from the server's histogram, or dashes."""
    h = (r.get("server_histograms") or {}).get("qipai_store_commit_seconds")
    if not h or not h.get("count"):
        return "—", "—"
    ms = lambda v: "—" if v is None else f"≤ {v * 1000:g}"
    return ms(h.get("p50")), ms(h.get("p99"))


def closed_loop(runs):
    print("| game, tables | store | actions/s | rounds: range | share of off | server µs/action | extra µs/action | frames/action | commit p50 ms | commit p99 ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
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
            c50, c99 = commit_ms(r)
            print(f"| {game}, {tables} | {store} | {aps:,.0f} | {spread(r)} | {share} | {per_action:.0f} | {extra} | {frames:.1f} | {c50} | {c99} |")
    machine_time(runs)


def machine_time(runs):
    """Where each run's machine time per action went, in µs (runs without the split, from
    before the load test read threads and the machine, are left out)."""
    rows = []
    for game, tables in sorted({(g, t) for g, t, _ in runs}):
        off = runs.get((game, tables, "off"))
        for store in ("off", "sqlite", "postgres"):
            r = runs.get((game, tables, store))
            if r is None or "machine_idle" not in r or not (r.get("server") or {}).get("threads_cpu_secs"):
                continue
            window, aps = r["window_secs"], r["actions_per_sec"]
            cores = r.get("machine_cores") or 1
            us = lambda secs: secs / window / aps * 1e6
            threads = r["server"]["threads_cpu_secs"]
            sqlite = us(threads.get("qipai-sqlite", 0.0))
            server = us(sum(threads.values())) - sqlite
            machine = cores / aps * 1e6
            idle = machine * r["machine_idle"]
            loadgen = r["loadtest_cores"] / aps * 1e6
            rest = machine - idle - server - sqlite - loadgen
            budget = "—"
            if store == "off":
                budget = f"+{machine / 9:.1f}"
            elif off:
                budget = f"{machine - cores / off['actions_per_sec'] * 1e6:+.1f}"
            rows.append(f"| {game}, {tables} | {store} | {machine:.1f} | {server:.1f} | {sqlite:.1f} | {loadgen:.1f} | {rest:.1f} | {idle:.1f} | {budget} |")
    if rows:
        print()
        print("| game, tables | store | machine µs/action | server | SQLite thread | load generator | rest (kernel, other) | idle | 90 % budget (off) / extra (store) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        print("\n".join(rows))


def human_pace(runs):
    print()
    print("| game, tables | store | actions/s | p99 action → all seats ms | rounds: range | × store off | KiB/table | commit p50 ms | commit p99 ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, tables in sorted({(g, t) for g, t, _ in runs}):
        off = runs.get((game, tables, "off"))
        for store in ("off", "sqlite", "postgres"):
            r = runs.get((game, tables, store))
            if r is None:
                continue
            p99 = r["all_seats_us"]["p99"] / 1000
            times = "—"
            if off and store != "off":
                times = f"{p99 / (off['all_seats_us']['p99'] / 1000):.2f}"
            kib = (r.get("server") or {}).get("rss_per_table_kib", 0.0)
            c50, c99 = commit_ms(r)
            print(f"| {game}, {tables} | {store} | {r['actions_per_sec']:,.0f} | {p99:.2f} | {spread(r, 1e-3, '{:.2f}')} | {times} | {kib:.1f} | {c50} | {c99} |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
