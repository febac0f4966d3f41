"""Showing a sheet: the chart of running totals (the CSV and the printed sheet: .exports).

Generic over the summary's common block: ``sides``, ``side_names`` and ``running`` (the
per-seat totals after each round). One line per side; a side's figure is its first
seat's (partners show their side's total).
"""

from __future__ import annotations

import math
from typing import Any

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 28
SERIES = 8  # css classes series-0 .. series-7 (colour and dash), then they repeat


def by_side(summary: dict[str, Any], seats: list[int]) -> list[int]:
    """Per-seat figures as one per side (a side's is its first seat's)."""
    return [seats[side[0]] for side in summary["sides"]]


def side_running(summary: dict[str, Any]) -> list[list[int]]:
    """Per round, each side's running total."""
    return [by_side(summary, totals) for totals in summary["running"]]


def nice_step(span: float, lines: int = 4) -> int:
    """A round step (1, 2, 5 times a power of ten) giving about ``lines`` grid lines."""
    raw = max(span / lines, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def chart(summary: dict[str, Any]) -> dict[str, Any] | None:
    """Everything the template needs to draw the running totals, or None before the
    first round. Coordinates are in the SVG's own units (``WIDTH`` x ``HEIGHT``)."""
    running = side_running(summary)
    if not running or any(v is None for row in running for v in row):
        return None  # no rounds yet, or totals behind the players' screens (seen_by)
    rounds = len(running)
    start = by_side(summary, summary["start"])
    values = [0, *start, *(v for row in running for v in row)]
    step = nice_step(max(values) - min(values))
    low = step * math.floor(min(values) / step)
    high = step * math.ceil(max(values) / step)
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * index / rounds, 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    series = []
    for side, name in enumerate(summary["side_names"]):
        line = [start[side], *(row[side] for row in running)]
        points = [(x(i), y(v)) for i, v in enumerate(line)]
        series.append(
            {
                "name": name,
                "css": f"series-{side % SERIES}",
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": points[1:],
                "total": line[-1],
            }
        )
    every = max(1, math.ceil(rounds / 8))
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "zero": y(0),
        "grid": [{"y": y(v), "value": v} for v in range(low, high + 1, step)],
        "ticks": [
            {"x": x(i), "label": i} for i in range(rounds + 1) if i % every == 0 or i == rounds
        ],
        "series": series,
        "table": [{"number": i + 1, "totals": row} for i, row in enumerate(running)],
        "low": low,
        "high": high,
    }
