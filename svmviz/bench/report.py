"""A figure of `svmviz bench`: its value beside its target and anchor, as a row (a dict,
what --json prints) and as a line of text."""

from __future__ import annotations


def row(name, value, unit, target=None, anchor="", lower_is_better=False) -> dict:
    ok = True if target is None else (value <= target if lower_is_better else value >= target)
    return dict(
        name=name,
        value=float(value),
        unit=unit,
        target=target,
        anchor=anchor,
        ok=bool(ok),
        lower_is_better=lower_is_better,
    )


def format_row(r: dict) -> str:
    sign = "≤" if r.get("lower_is_better") else "≥"
    target = f"target {sign} {r['target']:,}" if r["target"] is not None else "no target"
    flag = "" if r["target"] is None else ("  ok" if r["ok"] else "  BELOW TARGET")
    anchor = f"  [{r['anchor']}]" if r["anchor"] else ""
    v = r["value"]
    value = f"{v:>12,.2f}" if abs(v) < 10 else f"{v:>12,.1f}" if abs(v) < 100 else f"{v:>12,.0f}"
    return f"{r['name']:58s} {value} {r['unit']:12s} {target}{flag}{anchor}"
