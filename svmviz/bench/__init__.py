"""`svmviz bench`: every speed figure of the project, each beside its target and anchor.

Every figure is measured in this run, on this machine; a ratio is taken against an anchor
measured in the same run. Modules: ``engine`` (solver updates per second, time to 1% of
the optimum), ``frames`` (one frame of the plane, computed and drawn), ``window`` (the
window while it trains: frames per second, timer lateness, click and parameter latency, at
the scales the window supports) and ``start`` (from the command to the first frame).
"""

from __future__ import annotations

import json


def row(name, value, unit, target=None, anchor="", lower_is_better=False) -> dict:
    ok = True if target is None else (value <= target if lower_is_better else value >= target)
    return dict(name=name, value=float(value), unit=unit, target=target, anchor=anchor,
                ok=bool(ok), lower_is_better=lower_is_better)  # fmt: skip


def main(args) -> int:
    from svmviz.bench import engine, frames, play, start, window

    quick = getattr(args, "quick", False)
    rows = engine.measure(quick)
    rows += frames.measure(quick)
    rows += window.measure(quick)
    rows += start.measure(quick)
    rows += play.measure(quick)
    if getattr(args, "json", False):
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print(format_row(r))
    return 0


def format_row(r: dict) -> str:
    sign = "≤" if r.get("lower_is_better") else "≥"
    target = f"target {sign} {r['target']:,}" if r["target"] is not None else "no target"
    flag = "" if r["target"] is None else ("  ok" if r["ok"] else "  BELOW TARGET")
    anchor = f"  [{r['anchor']}]" if r["anchor"] else ""
    v = r["value"]
    value = f"{v:>12,.2f}" if abs(v) < 10 else f"{v:>12,.1f}" if abs(v) < 100 else f"{v:>12,.0f}"
    return f"{r['name']:58s} {value} {r['unit']:12s} {target}{flag}{anchor}"
