"""SVG pictures the report draws itself from a game's snapshot, where the engine has no renderer (Hanabi)."""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["hanabi_svg"]

_COLOURS = {"R": "#e63946", "Y": "#f4c430", "G": "#2a9d8f", "W": "#e9ecef", "B": "#457b9d"}


def _card(x: float, y: float, card: str, known: str) -> list[str]:
    colour = _COLOURS.get(card[:1], "#ccc")
    text = "#111" if card[:1] in "YW" else "#fff"
    return [
        f'<rect x="{x}" y="{y}" width="36" height="50" rx="5" fill="{colour}" stroke="#333"/>',
        f'<text x="{x + 18}" y="{y + 33}" font-size="20" text-anchor="middle" fill="{text}">{escape(card[1:2])}</text>',
        f'<text x="{x + 18}" y="{y + 66}" font-size="11" text-anchor="middle" fill="#555">{escape(known)}</text>',
    ]


def hanabi_svg(board: dict[str, Any]) -> str:
    """Draws the fireworks, the tokens and every seat's cards with what the holder knows (below each card).

    Args:
        board: Hanabi's snapshot (``Hanabi.snapshot``).
    """
    seats = board["seats"]
    width = max(420, 90 + 44 * max((len(cards) for cards in seats), default=0))
    height = 120 + 84 * len(seats)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" aria-label="Hanabi table">',
             f'<rect width="{width}" height="{height}" fill="#fbfaf5"/>',
             '<text x="10" y="20" font-size="13" fill="#333">fireworks</text>']
    for index, (colour, top) in enumerate(sorted(board["fireworks"].items(), key=lambda kv: "RYGWB".find(kv[0]))):
        parts += _card(10 + 44 * index, 28, f"{colour}{top}", "")
    parts.append(f'<text x="240" y="45" font-size="13" fill="#333">life {int(board["life_tokens"])} · '
                 f'info {int(board["info_tokens"])} · deck {int(board["deck_size"])}</text>')
    discards = " ".join(board.get("discards") or []) or "none"
    parts.append(f'<text x="240" y="65" font-size="12" fill="#666">discards: {escape(discards)}</text>')
    for seat, cards in enumerate(seats):
        y = 100 + 84 * seat
        parts.append(f'<text x="10" y="{y + 30}" font-size="13" fill="#333">player {seat}</text>')
        for index, card in enumerate(cards):
            parts += _card(80 + 44 * index, y, str(card["card"]), str(card["known"]))
    parts.append("</svg>")
    return "".join(parts)
