"""Inline SVG plots over runs: one point per run (x: the runs in date order), optional interval whiskers.

Every label is escaped here (the plots are inserted as markup). The
``<svg>`` elements carry no ``xmlns`` and the pages hold no URL; each point is
a ``<circle class="run-point" data-run="<run label>">`` with a ``<title>``.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from stratbench.report.gate import finite_number
from stratbench.report.svg import axis_ticks

__all__ = ["runs_chart"]

_PALETTE = ("#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d99ae", "#264653", "#e76f51")
_MAX_X_LABELS = 8


def runs_chart(series: list[dict[str, Any]], runs: list[tuple[str, str]], *, y_label: str,
               title: str, width: int = 720, height: int = 240) -> str:
    """Draws series of per-run values against the runs, joined in run order.

    Args:
        series: ``[{"name": str, "points": [{"index": i, "y": v, "low": l, "high": h}]}]``; ``low``/``high``
            draw a whisker where both are given; points whose ``y`` is None are skipped.
        runs: Every run as ``(label, date)``, oldest first; ``index`` points into it.
        y_label: The y axis title.
        title: What the chart shows (its accessible name).
        width: The width in pixels.
        height: The plot's height in pixels (the legend adds rows below).

    Returns:
        An ``<svg class="runs-chart">`` element, or ``""`` when no series has a point.
    """
    drawn = [(str(s["name"]), sorted((p for p in s["points"] if finite_number(p.get("y"))), key=lambda p: p["index"]))
             for s in series]
    drawn = [(name, points) for name, points in drawn if points]
    if not drawn:
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
    every = max(1, math.ceil(len(runs) / _MAX_X_LABELS))
    for index, (label, date) in enumerate(runs):
        parts.append(f'<line x1="{px(index):.1f}" y1="{top}" x2="{px(index):.1f}" y2="{top + plot_h}" stroke="#f0f0f0"/>')
        if index % every == 0 or index == len(runs) - 1:
            parts.append(f'<text x="{px(index):.1f}" y="{top + plot_h + 15}" text-anchor="middle" font-size="10" '
                         f'fill="#555"><title>{escape(label)}</title>{escape(date)}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 32}" text-anchor="middle" font-size="11" '
                 f'fill="#555">run (date, UTC)</text>')
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
            run_label, date = runs[p["index"]]
            detail = f"{name}: {p['y']:+.2f}" if p.get("low") is not None else f"{name}: {p['y']:.2f}"
            if finite_number(p.get("low")) and finite_number(p.get("high")):
                detail += f" [{p['low']:+.2f}, {p['high']:+.2f}]"
            parts.append(f'<circle class="run-point" data-run="{escape(run_label)}" cx="{x:.1f}" cy="{py(p["y"]):.1f}" '
                         f'r="4" fill="{colour}"><title>{escape(detail)} · run {escape(run_label)} '
                         f'({escape(date)})</title></circle>')
        lx, ly = left + (k % 3) * (plot_w / 3), height - 8 + 18 * (k // 3)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 14:.1f}" y="{ly:.1f}" font-size="11"><title>{escape(name)}</title>'
                     f'{escape(_short(name))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(label: str, limit: int = 40) -> str:
    return label if len(label) <= limit else label[:limit - 1] + "…"
