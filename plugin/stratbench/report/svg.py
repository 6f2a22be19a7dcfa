"""Inline SVG charts for the HTML report: a rating plot with interval whiskers, a heatmap, an x–y chart.

Every label is escaped here (the charts are inserted into the page as markup);
long labels are shortened for display and given in full in a ``<title>``. The
``<svg>`` elements carry no ``xmlns``: inline in HTML they need none, and the
report then holds no URL at all.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

__all__ = ["axis_ticks", "heatmap", "radar_chart", "rating_plot", "table_chart", "xy_chart"]

_PALETTE = ("#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d99ae", "#264653", "#e76f51")

_CHAR_W = 6.6
"""Approximate width of one character of 11–12 px sans-serif text, for sizing label areas."""
_MAX_LABEL = 42
"""Labels longer than this many characters are shortened in the charts."""


def rating_plot(ratings: dict[str, Any], *, width: int = 720) -> str:
    """Draws each agent's mean rating as a dot with its interval as a whisker, best first.

    Args:
        ratings: The ratings dict of the report data (``agents``, ``mean``, ``low``, ``high``).
        width: The width of the chart in pixels.

    Returns:
        An ``<svg class="rating-plot">`` element, or ``""`` when no agent has a rating.
    """
    rows = [
        (agent, mean, low, high)
        for agent, mean, low, high in zip(ratings["agents"], ratings["mean"], ratings["low"], ratings["high"])
        if mean is not None and low is not None and high is not None
    ]
    rows.sort(key=lambda r: (-r[1], r[0]))
    if not rows:
        return ""
    label_w = min(300, 16 + _CHAR_W * max(len(_short(r[0])) for r in rows))
    pad, row_h, top = 24, 26, 14
    ticks = axis_ticks(min(r[2] for r in rows), max(r[3] for r in rows))
    lo, hi = ticks[0], ticks[-1]
    plot_w = width - label_w - 2 * pad

    def x(value: float) -> float:
        return label_w + pad + (value - lo) / (hi - lo) * plot_w

    bottom = top + row_h * len(rows)
    height = bottom + 34
    parts = [
        (f'<svg class="rating-plot" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" role="img" aria-label="Bradley–Terry ratings with intervals">')
    ]
    for i in range(len(rows)):
        if i % 2 == 0:
            parts.append(f'<rect x="0" y="{top + i * row_h}" width="{width}" height="{row_h}" fill="#f6f8fb"/>')
    for value in ticks:
        colour, dash = ("#999", ' stroke-dasharray="4 3"') if abs(value) < 1e-12 else ("#ddd", "")
        parts.append(f'<line x1="{x(value):.1f}" y1="{top}" x2="{x(value):.1f}" y2="{bottom}" '
                     f'stroke="{colour}"{dash}/>')
        parts.append(f'<text x="{x(value):.1f}" y="{bottom + 16}" text-anchor="middle" font-size="11" '
                     f'fill="#555">{_tick_text(value)}</text>')
    parts.append(f'<text x="{label_w + pad + plot_w / 2:.1f}" y="{bottom + 30}" text-anchor="middle" '
                 f'font-size="11" fill="#555">rating (log-odds)</text>')
    for i, (agent, mean, low, high) in enumerate(rows):
        y = top + i * row_h + row_h / 2
        parts.append(f'<text x="{label_w:.0f}" y="{y + 4:.1f}" text-anchor="end" font-size="12">'
                     f'<title>{escape(agent)}</title>{escape(_short(agent))}</text>')
        parts.append(f'<line x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" y2="{y:.1f}" stroke="#4a6fa5" '
                     f'stroke-width="2"/>')
        for end in (low, high):
            parts.append(f'<line x1="{x(end):.1f}" y1="{y - 6:.1f}" x2="{x(end):.1f}" y2="{y + 6:.1f}" '
                         f'stroke="#4a6fa5" stroke-width="2"/>')
        parts.append(f'<circle cx="{x(mean):.1f}" cy="{y:.1f}" r="4.5" fill="#1d3557"><title>{escape(agent)}: '
                     f'{mean:+.2f} [{low:+.2f}, {high:+.2f}]</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def heatmap(agents: list[str], matrix: list[list[float]], *, cell: int = 46) -> str:
    """Draws P(row beats column) as a coloured grid (red below 0.5, blue above).

    Args:
        agents: Row and column labels.
        matrix: ``matrix[i][j]`` is the probability that agent i beats agent j.
        cell: The side of one cell in pixels.

    Returns:
        An ``<svg class="heatmap">`` element, or ``""`` for no agents.
    """
    if not agents:
        return ""
    longest = max(len(_short(a)) for a in agents)
    left = min(300, 14 + _CHAR_W * longest)
    head = min(220, 16 + _CHAR_W * longest * 0.72)  # column labels are rotated by 45 degrees
    size = cell * len(agents)
    width, height = int(left + size + head * 0.72 + 10), int(head + size + 10)
    parts = [(f'<svg class="heatmap" width="{width}" height="{height}" '
              f'viewBox="0 0 {width} {height}" role="img" aria-label="Pairwise win probabilities">')]
    for j, agent in enumerate(agents):
        cx = left + j * cell + cell / 2
        parts.append(f'<text transform="translate({cx:.1f},{head - 6:.1f}) rotate(-45)" font-size="11">'
                     f'<title>{escape(agent)}</title>{escape(_short(agent))}</text>')
    for i, agent in enumerate(agents):
        y = head + i * cell
        parts.append(f'<text x="{left - 6:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="end" font-size="11">'
                     f'<title>{escape(agent)}</title>{escape(_short(agent))}</text>')
        for j, value in enumerate(matrix[i]):
            x0 = left + j * cell
            if i == j:
                parts.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{cell}" height="{cell}" fill="#eee" '
                             'stroke="#fff"/>')
                continue
            parts.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{cell}" height="{cell}" fill="{_colour(value)}" '
                         f'stroke="#fff"><title>P({escape(agent)} beats {escape(agents[j])}) = {value:.3f}</title>'
                         '</rect>')
            parts.append(f'<text x="{x0 + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="middle" '
                         f'font-size="11" fill="{"#fff" if abs(value - 0.5) > 0.35 else "#222"}">{value:.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(label: str) -> str:
    """Shortens a label for display (the full text goes in a tooltip)."""
    return label if len(label) <= _MAX_LABEL else label[: _MAX_LABEL - 1] + "…"


def _colour(p: float) -> str:
    """Maps a probability to a diverging colour: red (0), white (0.5), blue (1)."""
    p = min(1.0, max(0.0, float(p)))
    if p < 0.5:
        t = (0.5 - p) / 0.5
        red, green, blue = 255 - 25 * t, 255 - 155 * t, 255 - 165 * t
    else:
        t = (p - 0.5) / 0.5
        red, green, blue = 255 - 200 * t, 255 - 135 * t, 255 - 60 * t
    return f"rgb({red:.0f},{green:.0f},{blue:.0f})"


def axis_ticks(lo: float, hi: float) -> list[float]:
    """Returns evenly spaced round tick values covering [lo, hi] (about five)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return [-1.0, 0.0, 1.0]
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    raw = (hi - lo) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(lo / step) * step
    ticks = []
    value = first
    while value < hi + step * 0.999:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < hi:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _tick_text(value: float) -> str:
    """Formats a tick value compactly (``+1.5``, ``0``, ``-2``)."""
    if abs(value) < 1e-12:
        return "0"
    return f"{value:+g}"


def xy_chart(series: list[dict[str, Any]], *, x_label: str, y_label: str, lines: bool = True,
             y_range: tuple[float, float] = (0.0, 100.0), width: int = 720, height: int = 300) -> str:
    """Draws series of ``(x, y)`` points on linear axes (y fixed to ``y_range``), joined by lines or not.

    Args:
        series: ``[{"name": str, "points": [[x, y], ...]}]``; points with a None coordinate are skipped.
        x_label: The x axis title.
        y_label: The y axis title.
        lines: Whether to join each series' points (sorted by x).
        y_range: The y axis range.
        width: The chart width in pixels.
        height: The plot height in pixels (the legend adds rows below).

    Returns:
        An ``<svg class="xy-chart">`` element, or ``""`` when no series has a point.
    """
    drawn = [(str(s["name"]), sorted((float(x), float(y)) for x, y in s["points"] if x is not None and y is not None))
             for s in series]
    drawn = [(name, points) for name, points in drawn if points]
    if not drawn:
        return ""
    xs = [x for _, points in drawn for x, _ in points]
    x_ticks = axis_ticks(min(xs), max(xs))
    y_ticks = axis_ticks(*y_range)
    left, right, top, plot_h = 52, 16, 12, height - 56
    plot_w = width - left - right
    x0, x1, y0, y1 = x_ticks[0], x_ticks[-1], y_ticks[0], y_ticks[-1]

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return top + plot_h - (y - y0) / (y1 - y0) * plot_h

    legend_rows = math.ceil(len(drawn) / 3)
    total_h = top + plot_h + 44 + 18 * legend_rows
    parts = [f'<svg class="xy-chart" width="{width}" height="{total_h}" viewBox="0 0 {width} {total_h}" role="img" '
             f'aria-label="{escape(y_label)} by {escape(x_label)}">']
    for value in y_ticks:
        parts.append(f'<line x1="{left}" y1="{py(value):.1f}" x2="{left + plot_w}" y2="{py(value):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{py(value) + 4:.1f}" text-anchor="end" font-size="11" fill="#555">'
                     f'{value:g}</text>')
    for value in x_ticks:
        parts.append(f'<line x1="{px(value):.1f}" y1="{top}" x2="{px(value):.1f}" y2="{top + plot_h}" stroke="#eee"/>')
        parts.append(f'<text x="{px(value):.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11" '
                     f'fill="#555">{value:g}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 32}" text-anchor="middle" font-size="11" '
                 f'fill="#555">{escape(x_label)}</text>')
    parts.append(f'<text transform="translate(14,{top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" '
                 f'font-size="11" fill="#555">{escape(y_label)}</text>')
    for k, (name, points) in enumerate(drawn):
        colour = _PALETTE[k % len(_PALETTE)]
        if lines and len(points) > 1:
            path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
        for x, y in points:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{colour}">'
                         f'<title>{escape(name)}: ({x:g}, {y:g})</title></circle>')
        lx, ly = left + (k % 3) * (plot_w / 3), top + plot_h + 50 + 18 * (k // 3)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 14:.1f}" y="{ly:.1f}" font-size="11"><title>{escape(name)}</title>'
                     f'{escape(_short(name))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def radar_chart(axes: list[str], series: list[dict[str, Any]], *, size: int = 360) -> str:
    """Draws each series as a closed polygon over radial axes scaled 0 (centre) to 1 (rim).

    Args:
        axes: The axis names, clockwise from the top.
        series: ``[{"name": str, "values": [v, ...]}]``, one value in [0, 1] per axis
            (clipped to it; None counts as 0).
        size: The plot's width and height in pixels (the legend adds rows below).

    Returns:
        An ``<svg class="radar-chart">`` element, or ``""`` with fewer than 3 axes or no series.
    """
    if len(axes) < 3 or not series:
        return ""
    centre, radius = size / 2, size / 2 - 48

    def point(k: int, value: float) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * k / len(axes)
        return centre + radius * value * math.cos(angle), centre + radius * value * math.sin(angle)

    legend_rows = math.ceil(len(series) / 2)
    total_h = size + 8 + 18 * legend_rows
    parts = [f'<svg class="radar-chart" width="{size}" height="{total_h}" viewBox="0 0 {size} {total_h}" '
             f'role="img" aria-label="radar of {escape(", ".join(axes))}">']
    for level in (0.25, 0.5, 0.75, 1.0):
        ring = " ".join(f"{x:.1f},{y:.1f}" for x, y in (point(k, level) for k in range(len(axes))))
        parts.append(f'<polygon points="{ring}" fill="none" stroke="#ddd"/>')
    for k, name in enumerate(axes):
        x, y = point(k, 1.0)
        lx, ly = point(k, 1.16)
        parts.append(f'<line x1="{centre:.1f}" y1="{centre:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="#ccc"/>')
        parts.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" text-anchor="middle" font-size="11" fill="#555">'
                     f'{escape(name)}</text>')
    for k, item in enumerate(series):
        colour = _PALETTE[k % len(_PALETTE)]
        values = [min(1.0, max(0.0, float(v or 0.0))) for v in item["values"]]
        shape = " ".join(f"{x:.1f},{y:.1f}" for x, y in (point(i, v) for i, v in enumerate(values)))
        parts.append(f'<polygon points="{shape}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" '
                     f'stroke-width="1.8"><title>{escape(str(item["name"]))}: '
                     f'{escape(", ".join(f"{a} {v:.2f}" for a, v in zip(axes, values)))}</title></polygon>')
        lx, ly = 12 + (k % 2) * (size / 2), size + 8 + 18 * (k // 2)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9:.1f}" width="10" height="10" fill="{colour}"/>')
        parts.append(f'<text x="{lx + 14:.1f}" y="{ly:.1f}" font-size="11"><title>{escape(str(item["name"]))}'
                     f'</title>{escape(_short(str(item["name"])))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def table_chart(table: dict[str, Any]) -> str:
    """Draws a table's optional ``chart`` as inline SVG: x–y (``{"x_label", "y_label", "lines", "series"}``)
    or, with ``"kind": "radar"``, a radar (``{"axes", "series": [{"name", "values"}]}``)."""
    chart = table.get("chart")
    if not chart:
        return ""
    if chart.get("kind") == "radar":
        return radar_chart(chart["axes"], chart["series"])
    return xy_chart(chart["series"], x_label=chart["x_label"], y_label=chart["y_label"],
                    lines=chart.get("lines", True))
