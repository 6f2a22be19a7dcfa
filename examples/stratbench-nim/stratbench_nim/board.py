"""Nim's board renderer for the replay viewer: the heaps as rows of tokens, those taken drawn hollow."""

from __future__ import annotations

from typing import Any

TOKEN = 22
"""A token's diameter and the row height, in pixels."""
_LEFT = "#2a9d8f"
_LAST = "#e76f51"
_GONE = "#cccccc"


def heaps_svg(board: dict[str, Any]) -> str:
    """Draws one ``board`` snapshot (``heaps``, ``start``, ``last``) as an inline ``<svg>``.

    Each heap is a row of its starting tokens: those left filled, those the
    last move took outlined in orange, those taken earlier outlined in grey.
    """
    heaps = [int(size) for size in board["heaps"]]
    start = [int(size) for size in board.get("start") or heaps]
    last = board.get("last") or {}
    last_heap, last_count = (int(last["heap"]) - 1, int(last["count"])) if last else (-1, 0)
    width, height = 44 + max(start + [1]) * (TOKEN + 4), 12 + len(heaps) * (TOKEN + 8)
    label = ", ".join(str(size) for size in heaps)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="nim-heaps" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="Nim heaps {label}">',
             f'<rect width="{width}" height="{height}" fill="#fdfdf7"/>']
    for i, size in enumerate(heaps):
        y = 6 + i * (TOKEN + 8) + TOKEN / 2
        parts.append(f'<text x="6" y="{y + 5:.1f}" font-size="13" font-family="sans-serif" fill="#555">{i + 1}</text>')
        for j in range(max(start[i], size)):
            x = 30 + j * (TOKEN + 4) + TOKEN / 2
            if j < size:
                fill, stroke = _LEFT, _LEFT
            else:
                fill, stroke = "none", _LAST if i == last_heap and j < size + last_count else _GONE
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{TOKEN / 2 - 1:.1f}" fill="{fill}" '
                         f'stroke="{stroke}" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)
