"""The match shapes the session plays, keyed by the shape name a game declares (see ``core.shapes``)."""

from __future__ import annotations

from collections.abc import Mapping

from stratbench.core.game import GameBase
from stratbench.core.shapes import MatchShape, find_shape
from stratbench.match.moves import MovesShape
from stratbench.match.revision import RevisionShape

MATCH_SHAPES: Mapping[str, MatchShape] = {shape.name: shape for shape in (MovesShape(), RevisionShape())}
"""``moves`` (the runner) and ``revision`` (the strategy rounds)."""


def shape_of(game: GameBase, shapes: Mapping[str, MatchShape] = MATCH_SHAPES) -> MatchShape:
    """Returns the shape that plays ``game`` (see :func:`~stratbench.core.shapes.find_shape`).

    Raises:
        UnknownShapeError: the game declares a shape not in ``shapes``.
    """
    return find_shape(game, shapes)
