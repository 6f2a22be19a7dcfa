"""Screen and minimap images for vision models (sent only under ``--stratbench-vision``).

One PNG per observation: the screen (left) and the minimap (right), each
drawn from pysc2's ``player_relative`` feature layer (own green, allied blue,
neutral grey, enemy red) with the units of the unit table marked on top, and
with the released wrapper's auxiliary lines: 9 grid lines per axis, labelled
in feature-layer coordinates so a model can read positions off the picture.
Drawing uses only the observation, so the bytes are the same on every replay.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from stratbench.games.sc2.unit_table import ALLY, ENEMY, NEUTRAL, SELF, UnitTable

SCALE = {"screen": 4, "minimap": 4}
COLOURS = {0: (0, 0, 0), SELF: (40, 200, 40), ALLY: (40, 90, 230), NEUTRAL: (150, 150, 150), ENEMY: (220, 40, 40)}
GRID = (255, 255, 255)


def render_png(observation: Any) -> bytes:
    """Returns the observation's screen and minimap side by side, as PNG bytes."""
    from PIL import Image  # lean: PIL only when a frame is drawn

    table = UnitTable.from_observation(observation)
    screen = _panel(observation, "feature_screen", table, lambda u: u.screen, SCALE["screen"])
    minimap = _panel(observation, "feature_minimap", table, lambda u: u.minimap, SCALE["minimap"])
    image = Image.new("RGB", (screen.width + minimap.width + 8, max(screen.height, minimap.height)), (24, 24, 24))
    image.paste(screen, (0, 0))
    image.paste(minimap, (screen.width + 8, 0))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _panel(observation: Any, key: str, table: UnitTable, position: Any, scale: int) -> Any:
    from PIL import Image, ImageDraw  # lean: PIL only when a frame is drawn

    layer = observation[key].player_relative if key in observation else np.zeros((64, 64), dtype=np.int32)
    size = int(layer.shape[-1])
    palette = np.array([COLOURS[i] for i in range(5)], dtype=np.uint8)
    pixels = palette[np.clip(np.asarray(layer), 0, 4)]
    image = Image.fromarray(pixels, "RGB").resize((size * scale, size * scale), Image.NEAREST)
    draw = ImageDraw.Draw(image)
    for unit in table.units:
        point = position(unit)
        if point is None:
            continue
        x, y = point[0] * scale, point[1] * scale
        draw.ellipse((x - 2 * scale, y - 2 * scale, x + 2 * scale, y + 2 * scale),
                     fill=COLOURS.get(unit.alliance, GRID), outline=GRID)
    for index in range(1, 10):
        at = index * size * scale // 10
        label = str(index * size // 10)
        draw.line((at, 0, at, size * scale), fill=GRID, width=1)
        draw.line((0, at, size * scale, at), fill=GRID, width=1)
        draw.text((at + 2, 2), label, fill=GRID)
        draw.text((2, at + 2), label, fill=GRID)
    return image
