"""Renders a Hive board as text and as a PNG (GameBench's image observation).

The PNG draws pointy-top hexagons at their axial positions: White pieces are
light tiles, Black pieces dark tiles, each with its bug letter, a ring in the
bug's colour and its ``q:r`` cell. The empty cells next to the hive are drawn
as outlines with their cell names, so a vision model can read destinations off
the image. The same state always gives the same bytes (a fixed palette, no
timestamps or metadata). The text rendering shows the same board for
text-only models.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from stratbench.games.gamebench.hive_board import (
    BUGS,
    COLOURS,
    Position,
    cell_name,
    neighbours,
)

__all__ = ["render_png", "render_text"]

_RADIUS = 34
_MARGIN = 12
_HEADER = 24
_PALETTE_COLOURS = (
    (250, 250, 245),  # background
    (245, 240, 225),  # White tile
    (40, 40, 40),  # Black tile
    (20, 20, 20),  # ink on a White tile
    (245, 245, 245),  # ink on a Black tile
    (214, 160, 0),  # Queen Bee ring
    (140, 80, 40),  # Spider ring
    (40, 150, 60),  # Grasshopper ring
    (40, 90, 200),  # Soldier Ant ring
    (190, 190, 190),  # empty cell outline
    (120, 120, 120),  # empty cell label
)
"""The fixed palette: the image is drawn in palette mode, one byte a pixel, which keeps encoding fast."""
_BACKGROUND, _TILE, _INK = 0, (1, 2), (3, 4)
_RING = {"Q": 5, "S": 6, "G": 7, "A": 8}
_EMPTY_LINE, _EMPTY_INK = 9, 10
_PALETTE = [channel for colour in _PALETTE_COLOURS for channel in colour]


def render_text(state: Position) -> str:
    """Renders the board as a staggered hex map plus a list of pieces by cell.

    Each row of the map is one ``r``; a row sits half a cell to the right of the
    row above, so a cell's six neighbours are the two beside it and the two
    above and below it on either side. Occupied cells show ``<owner><bug>`` and
    their cell (``wQ 0:0``); empty cells next to the hive show ``. q:r``.
    """
    if not state.board:
        return "The board is empty; the first piece goes to 0:0."
    frontier = {n for c in state.board for n in neighbours(c) if n not in state.board}
    cells = set(state.board) | frontier
    rows = sorted({r for _, r in cells})
    xs = {c: 2 * c[0] + c[1] for c in cells}
    left = min(xs.values())
    width = 5
    lines = ["Map (w = White, b = Black; Q Queen Bee, S Spider, G Grasshopper, A Soldier Ant; . = empty):"]
    for r in rows:
        line = ""
        for cell in sorted((c for c in cells if c[1] == r), key=lambda c: c[0]):
            column = (xs[cell] - left) * width
            if cell in state.board:
                owner, bug = state.board[cell]
                token = f"{COLOURS[owner][0].lower()}{bug} {cell_name(cell)}"
            else:
                token = f" . {cell_name(cell)}"
            line = line.ljust(column) + token.center(2 * width - 1)
        lines.append(f"r={r:<3} |" + line.rstrip())
    lines.append("Pieces:")
    for cell, (owner, bug) in sorted(state.board.items(), key=lambda item: (item[1], item[0])):
        lines.append(f"  {COLOURS[owner]} {BUGS[bug]} ({bug}) at {cell_name(cell)}")
    return "\n".join(lines)


def render_png(state: Position) -> bytes:
    """Returns the PNG bytes of ``state``'s board.

    Raises:
        ImportError: if Pillow is missing (it is a core dependency).
    """
    from PIL import Image, ImageDraw  # lean: PIL when a board is drawn (hive loads at pytest start)

    frontier = {n for c in state.board for n in neighbours(c) if n not in state.board} or {(0, 0)}
    cells = sorted(set(state.board) | frontier)
    centres = {c: _centre(c) for c in cells}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    half_width = _RADIUS * math.sqrt(3) / 2
    left = min(xs) - half_width - _MARGIN
    top = min(ys) - _RADIUS - _MARGIN - _HEADER
    mover = COLOURS[state.turn % 2]
    header = _text_mask(f"{mover} to move. Light tiles: White; dark tiles: Black. Cells are q:r.", True)
    width = int(max(max(xs) - left + half_width + _MARGIN, header.width + 2 * _MARGIN)) + 1
    size = (width, int(max(ys) - top + _RADIUS + _MARGIN + 1))
    image = Image.new("P", size, _BACKGROUND)
    image.putpalette(_PALETTE)
    image.paste(_INK[0], (_MARGIN, _MARGIN), header)
    draw = ImageDraw.Draw(image)
    for cell in cells:
        x, y = centres[cell][0] - left, centres[cell][1] - top
        outer = _hexagon(x, y, _RADIUS - 1)
        label = cell_name(cell)
        if cell not in state.board:
            draw.polygon(outer, outline=_EMPTY_LINE, width=1)
            _stamp(image, x, y, label, _EMPTY_INK, small=True)
            continue
        owner, bug = state.board[cell]
        draw.polygon(outer, fill=_RING[bug])
        draw.polygon(_hexagon(x, y, _RADIUS - 6), fill=_TILE[owner])
        _stamp(image, x, y - 5, bug, _INK[owner], small=False)
        _stamp(image, x, y + 14, label, _INK[owner], small=True)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def render_svg(tiles: list[tuple[int, int, int, str]], turn: int) -> str:
    """Returns an SVG picture of a board given as ``(q, r, owner, bug)`` tiles (the replay viewer's board).

    The same layout as :func:`render_png`: pointy-top hexagons, light tiles White's, dark Black's,
    each labelled with its bug and cell, the empty cells around the hive outlined.
    """
    board = {(q, r): (owner, bug) for q, r, owner, bug in tiles}
    frontier = {n for c in board for n in neighbours(c) if n not in board} or {(0, 0)}
    cells = sorted(set(board) | frontier)
    centres = {c: _centre(c) for c in cells}
    half_width = _RADIUS * math.sqrt(3) / 2
    left = min(x for x, _ in centres.values()) - half_width - _MARGIN
    top = min(y for _, y in centres.values()) - _RADIUS - _MARGIN - _HEADER
    width = max(max(x for x, _ in centres.values()) - left + half_width + _MARGIN, 420)
    height = max(y for _, y in centres.values()) - top + _RADIUS + _MARGIN
    fill = ("#f4ecd8", "#2f2f2f")
    ink = ("#222", "#f4f4f4")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" role="img" aria-label="Hive board">',
             f'<rect width="{width:.1f}" height="{height:.1f}" fill="#fafaf5"/>',
             f'<text x="{_MARGIN}" y="{_MARGIN + 12}" font-size="13">{COLOURS[turn % 2]} to move. '
             "Light tiles: White; dark tiles: Black. Cells are q:r.</text>"]
    for cell in cells:
        x, y = centres[cell][0] - left, centres[cell][1] - top
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in _hexagon(x, y, _RADIUS - 1))
        if cell not in board:
            parts.append(f'<polygon points="{points}" fill="none" stroke="#bbb"/>'
                         f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" text-anchor="middle" '
                         f'fill="#999">{cell_name(cell)}</text>')
            continue
        owner, bug = board[cell]
        parts.append(f'<polygon points="{points}" fill="{fill[owner]}" stroke="#8a6d3b" stroke-width="3"/>'
                     f'<text x="{x:.1f}" y="{y:.1f}" font-size="18" text-anchor="middle" '
                     f'fill="{ink[owner]}">{bug}</text>'
                     f'<text x="{x:.1f}" y="{y + 16:.1f}" font-size="10" text-anchor="middle" '
                     f'fill="{ink[owner]}">{cell_name(cell)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _stamp(image, x: float, y: float, text: str, colour: int, *, small: bool) -> None:
    """Pastes ``text`` centred on ``(x, y)`` in palette colour ``colour``."""
    mask = _text_mask(text, small)
    image.paste(colour, (round(x - mask.width / 2), round(y - mask.height / 2)), mask)


@lru_cache(maxsize=4096)
def _text_mask(text: str, small: bool):
    """Returns a one-bit mask of ``text`` (cached: the same labels recur every turn)."""
    from PIL import Image, ImageDraw  # lean: PIL when a board is drawn (hive loads at pytest start)

    font = _fonts()[1 if small else 0]
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("1", (max(right - left, 1), max(bottom - top, 1)), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -top), text, fill=1, font=font)
    return mask


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    q, r = cell
    return _RADIUS * math.sqrt(3) * (q + r / 2), _RADIUS * 1.5 * r


def _hexagon(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [
        (x + radius * math.cos(math.radians(60 * i - 30)), y + radius * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


@lru_cache(maxsize=1)
def _fonts():
    from PIL import ImageFont  # lean: PIL when a board is drawn (hive loads at pytest start)

    try:
        return ImageFont.load_default(size=22), ImageFont.load_default(size=11)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        font = ImageFont.load_default()
        return font, font
