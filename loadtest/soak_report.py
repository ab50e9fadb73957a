#!/usr/bin/env python3
"""The soak's report (loadtest/soak.sh): from its samples (.csv) and its periods' load runs
(.jsonl), the server's RSS, descriptors, threads and store size over the hour, and each
period's reference p99; with --svg PATH, the same drawn as five small charts. Exits 1 when a
period's load run has no figures or its players saw an error."""
import csv
import json
import sys


def chart(x0, y0, w, h, title, points, unit):
    """One small line chart as SVG elements: `points` are (seconds, value)."""
    out = [f'<text x="{x0}" y="{y0 - 6}" font-size="12">{title}</text>',
           f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#999"/>']
    if not points:
        return out
    tmax = max(t for t, _ in points) or 1
    vmax = max(v for _, v in points) or 1
    path = " ".join(f"{x0 + t / tmax * w:.1f},{y0 + h - v / vmax * h:.1f}" for t, v in points)
    out.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="1.5"/>')
    out.append(f'<text x="{x0 + w + 4}" y="{y0 + 10}" font-size="10">{vmax:,.1f} {unit}</text>')
    out.append(f'<text x="{x0 + w + 4}" y="{y0 + h}" font-size="10">0</text>')
    out.append(f'<text x="{x0 + w - 40}" y="{y0 + h + 12}" font-size="10">{tmax / 60:.0f} min</text>')
    return out


def main(args):
    svg = None
    if "--svg" in args:
        i = args.index("--svg")
        svg = args[i + 1]
        args = args[:i] + args[i + 2:]
    samples_path, runs_path = args
    samples = list(csv.DictReader(open(samples_path)))
    runs = [json.loads(line) for line in open(runs_path) if line.strip()]
    bad = []
    print("| period | from (min) | tables | actions/s | p99 action to every seat (ms) | errors |")
    print("|---:|---:|---:|---:|---:|---|")
    p99 = []
    for r in runs:
        run = r.get("run") or {}
        errors = dict(run.get("errors") or {})
        if run.get("protocol_errors"):
            errors["protocol"] = run["protocol_errors"]
        if not run.get("actions_per_sec") or errors:
            bad.append(r["period"])
        seats = (run.get("all_seats_us") or {}).get("p99", 0) / 1000
        p99.append((r["t_s"], seats))
        print(f"| {r['period']} | {r['t_s'] / 60:.0f} | {run.get('tables', '—')} | "
              f"{run.get('actions_per_sec', 0):,.0f} | {seats:.1f} | {errors or 'none'} |")
    series = {k: [(int(s["t_s"]), float(s[k])) for s in samples] for k in
              ("rss_kib", "fds", "threads", "store_bytes")}
    if samples:
        rss = [v / 1024 for _, v in series["rss_kib"]]
        print(f"\nsamples: {len(samples)} over {int(samples[-1]['t_s']) / 60:.1f} min; "
              f"RSS {min(rss):.0f}–{max(rss):.0f} MiB; descriptors ≤ {max(v for _, v in series['fds']):.0f}; "
              f"threads ≤ {max(v for _, v in series['threads']):.0f}; store "
              f"{series['store_bytes'][0][1] / 2**20:.1f} → {series['store_bytes'][-1][1] / 2**20:.1f} MiB")
    if svg:
        w, h = 360, 90
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" '
                 'font-family="sans-serif">']
        panels = [("server RSS", [(t, v / 1024) for t, v in series["rss_kib"]], "MiB"),
                  ("open descriptors", series["fds"], ""),
                  ("threads", series["threads"], ""),
                  ("store size", [(t, v / 2**20) for t, v in series["store_bytes"]], "MiB"),
                  ("reference p99, action to every seat, per period", p99, "ms")]
        for i, (title, points, unit) in enumerate(panels):
            parts += chart(20, 30 + i * 122, w, h, title, points, unit)
        parts.append("</svg>")
        with open(svg, "w") as f:
            f.write("\n".join(parts) + "\n")
        print(f"chart: {svg}")
    if bad:
        print(f"periods without figures or with errors: {bad}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
