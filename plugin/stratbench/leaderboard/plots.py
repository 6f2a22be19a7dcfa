"""Inline SVG plots: values over runs (one point per run, x: the runs in date order, optional interval
whiskers), a rating's interval drawn small inside a table row, and the run axis's tick labels.

Every label is escaped here (the plots are inserted as markup). The
``<svg>`` elements carry no ``xmlns`` and the pages hold no URL; each point of
a runs chart is a ``<circle class="run-point" data-run="<run label>">`` with a
``<title>``.
"""

from __future__ import annotations

import math
from datetime import datetime
from html import escape
from typing import Any

from stratbench.report.gate import finite_number
from stratbench.report.svg import axis_ticks

__all__ = ["interval_plot", "interval_scale", "runs_chart", "time_ticks"]

_PALETTE = ("#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d99ae", "#264653", "#e76f51")
_MAX_X_LABELS = 8
_TICK_FORMATS = ("%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S")


def time_ticks(starts: list[datetime | None]) -> list[str]:
    """Labels for runs started at ``starts`` (UTC), all distinct: a run alone on its day is its date, runs sharing
    a day add the time (to the second where two of them share a minute); a start not known is ``unknown``, and a
    label still shared (the same second, or unknown twice) gets `` (2)``, `` (3)``... after its first."""
    by_day: dict[str, list[datetime]] = {}
    for start in starts:
        if start is not None:
            by_day.setdefault(start.strftime(_TICK_FORMATS[0]), []).append(start)
    chosen = {}
    for day, same_day in by_day.items():
        chosen[day] = next((pattern for pattern in _TICK_FORMATS
                            if len({start.strftime(pattern) for start in same_day}) == len(same_day)),
                           _TICK_FORMATS[-1])
    labels = [start.strftime(chosen[start.strftime(_TICK_FORMATS[0])]) if start is not None else "unknown"
              for start in starts]
    seen: dict[str, int] = {}
    distinct = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        distinct.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return distinct


def interval_scale(rows: list[dict[str, Any]]) -> tuple[float, float]:
    """The span one table's interval plots share: every row's ``low``, ``mean`` and ``high``, and 0, padded."""
    values = [0.0, *(row[key] for row in rows for key in ("low", "mean", "high") if finite_number(row.get(key)))]
    low, high = min(values), max(values)
    pad = (high - low) * 0.04 or 1.0
    return low - pad, high + pad


def interval_plot(mean: float, low: float | None, high: float | None, scale: tuple[float, float], *,
                  width: int = 180, height: int = 16) -> str:
    """A rating and its interval as a small ``<svg class="interval-plot">`` for a table cell: a bar from ``low``
    to ``high``, a dot at ``mean`` and a tick at 0, on the ``scale`` its table shares (:func:`interval_scale`)."""
    start, end = scale

    def px(value: float) -> float:
        return 4 + (value - start) / (end - start) * (width - 8)

    middle = height / 2
    title = f"{mean:+.2f}" + (f" [{low:+.2f}, {high:+.2f}]" if finite_number(low) and finite_number(high) else "")
    parts = [(f'<svg class="interval-plot" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
              f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'),
             f'<line x1="{px(0):.1f}" y1="1" x2="{px(0):.1f}" y2="{height - 1}" stroke="#bbb"/>']
    if finite_number(low) and finite_number(high):
        parts.append(f'<line class="interval" x1="{px(low):.1f}" y1="{middle}" x2="{px(high):.1f}" y2="{middle}" '
                     f'stroke="#1d3557" stroke-width="3" stroke-linecap="round" opacity="0.45"/>')
    parts.append(f'<circle cx="{px(mean):.1f}" cy="{middle}" r="4" fill="#1d3557"/></svg>')
    return "".join(parts)


def runs_chart(series: list[dict[str, Any]], runs: list[tuple[str, str]], *, y_label: str,
               title: str, width: int = 720, height: int = 240) -> str:
    """Draws series of per-run values against the runs, joined in run order.

    Args:
        series: ``[{"name": str, "points": [{"index": i, "y": v, "low": l, "high": h}]}]``; ``low``/``high``
            draw a whisker where both are given; points whose ``y`` is None are skipped.
        runs: Every run as ``(label, tick)``, oldest first (ticks distinct: :func:`time_ticks`); ``index``
            points into it.
        y_label: The y axis title.
        title: What the chart shows (its accessible name).
        width: The width in pixels.
        height: The plot's height in pixels (the legend adds rows below).

    Returns:
        An ``<svg class="runs-chart">`` element, or ``""`` when no series has two points (one point is no
        history).
    """
    drawn = [(str(s["name"]), sorted((p for p in s["points"] if finite_number(p.get("y"))), key=lambda p: p["index"]))
             for s in series]
    drawn = [(name, points) for name, points in drawn if points]
    if not any(len(points) > 1 for _, points in drawn):
        return ""
    values = [v for _, points in drawn for p in points for v in (p["y"], p.get("low"), p.get("high"))
              if finite_number(v)]
    ticks = axis_ticks(min(values), max(values))
    left, right, top, plot_h = 56, 56, 12, height - 70
    plot_w = width - left - right
    step = plot_w / max(1, len(runs) - 1)

    def px(index: int) -> float:
        return left + (index * step if len(runs) > 1 else plot_w / 2)

    def py(value: float) -> float:
        return top + plot_h - (value - ticks[0]) / (ticks[-1] - ticks[0]) * plot_h

    legend_rows = math.ceil(len(drawn) / 3)
    total_h = height + 18 * legend_rows
    parts = [f'<svg class="runs-chart" width="{width}" height="{total_h}" viewBox="0 0 {width} {total_h}" '
             f'role="img" aria-label="{escape(title)}">']
    for value in ticks:
        parts.append(f'<line x1="{left}" y1="{py(value):.1f}" x2="{left + plot_w}" y2="{py(value):.1f}" '
                     f'stroke="#ddd"/><text x="{left - 6}" y="{py(value) + 4:.1f}" text-anchor="end" '
                     f'font-size="11" fill="#555">{value:g}</text>')
    labelled = _labelled(len(runs), max(1, int(plot_w // (6 * max(len(tick) for _, tick in runs) + 12))))
    for index, (label, tick) in enumerate(runs):
        parts.append(f'<line x1="{px(index):.1f}" y1="{top}" x2="{px(index):.1f}" y2="{top + plot_h}" stroke="#f0f0f0"/>')
        if index in labelled:
            parts.append(f'<text x="{px(index):.1f}" y="{top + plot_h + 15}" text-anchor="middle" font-size="10" '
                         f'fill="#555"><title>{escape(label)}</title>{escape(tick)}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 32}" text-anchor="middle" font-size="11" '
                 f'fill="#555">run (start, UTC)</text>')
    parts.append(f'<text transform="translate(14,{top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
                 f'font-size="11" fill="#555">{escape(y_label)}</text>')
    for k, (name, points) in enumerate(drawn):
        colour = _PALETTE[k % len(_PALETTE)]
        if len(points) > 1:
            path = " ".join(f"{px(p['index']):.1f},{py(p['y']):.1f}" for p in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
        for p in points:
            x = px(p["index"])
            if finite_number(p.get("low")) and finite_number(p.get("high")):
                parts.append(f'<line x1="{x:.1f}" y1="{py(p["low"]):.1f}" x2="{x:.1f}" y2="{py(p["high"]):.1f}" '
                             f'stroke="{colour}" stroke-width="1.2" opacity="0.6"/>')
            run_label, tick = runs[p["index"]]
            detail = f"{name}: {p['y']:+.2f}" if p.get("low") is not None else f"{name}: {p['y']:.2f}"
            if finite_number(p.get("low")) and finite_number(p.get("high")):
                detail += f" [{p['low']:+.2f}, {p['high']:+.2f}]"
            parts.append(f'<circle class="run-point" data-run="{escape(run_label)}" cx="{x:.1f}" cy="{py(p["y"]):.1f}" '
                         f'r="4" fill="{colour}"><title>{escape(detail)} · run {escape(run_label)} '
                         f'({escape(tick)})</title></circle>')
        lx, ly = left + (k % 3) * (plot_w / 3), height - 8 + 18 * (k // 3)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 14:.1f}" y="{ly:.1f}" font-size="11"><title>{escape(name)}</title>'
                     f'{escape(_short(name, max(12, int(plot_w / 3 / 6.5))))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _labelled(count: int, fitting: int) -> set[int]:
    """Which of ``count`` runs get a tick label when ``fitting`` labels fit side by side: evenly spaced, the first
    and the last always (the last taking the place of a neighbour too close to it)."""
    every = max(1, math.ceil(count / min(fitting, _MAX_X_LABELS)))
    shown = set(range(0, count, every))
    last = count - 1
    if last not in shown:
        shown.discard(max(shown) or -1)  # the last label replaces its too close neighbour, never the first
        shown.add(last)
    return shown


def _short(label: str, limit: int = 40) -> str:
    return label if len(label) <= limit else label[:limit - 1] + "…"
