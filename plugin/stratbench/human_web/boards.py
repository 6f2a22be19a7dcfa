"""The board the page shows, and how a click on it reads as a move.

Games without hidden information show their board (the latest ``board``
snapshot of the match, drawn by the game's registered board renderer, as on
the replay pages): there the whole position is what the person's seat may
see; those that also move one player at a time list the moves played, and the
other players' last move with the reply text of the model that chose it
(:func:`last_move_of_others`). A game with hidden information shows exactly its
:class:`~stratbench.core.types.Observation` for the person's seat.

A clickable board is described to the page as a grid over the drawing
(:func:`click_layout`, from the layout its family registered with
``Registry.add_board_clicks``): the share of the image's width and height the
grid covers, its rows and columns, and the move each cell (or column) stands
for. Games without one are played through their action list or the text box.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from stratbench.core.game import GameInfo
from stratbench.core.types import Observation

_DESC = re.compile(r"<desc>.*?</desc>", re.DOTALL)


def shows_board(info: GameInfo) -> bool:
    """Tells whether the page may show the whole position (a game without hidden information: its board
    snapshots, taken after each joint move is applied, are public)."""
    return not info.hidden_information


def shows_moves(info: GameInfo) -> bool:
    """Tells whether the page may list the moves as they are made (no hidden information, one player at a
    time: in a simultaneous game the others' moves of the turn are secret until it resolves)."""
    return not info.hidden_information and not info.simultaneous


def board_svg(renderers: dict[str, Callable[[dict[str, Any]], str | None]], game: str,
              events: list[dict[str, Any]]) -> str | None:
    """The latest board snapshot of the match drawn by ``game``'s renderer; None without either."""
    renderer = renderers.get(game)
    boards = [event for event in events if event.get("kind") == "board"]
    if renderer is None or not boards:
        return None
    svg = renderer(boards[-1]["board"])
    # python-chess puts the board's text in <desc><pre>: in an HTML page a <pre> ends the <svg> early
    return None if svg is None else _DESC.sub("", svg)


def moves_played(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of the match so far (player and action), in order."""
    return [{"player": event["player"], "action": event["action"]} for event in events
            if event.get("kind") in ("action", "fallback") and "action" in event]


REPLY_SHOWN = 4000
"""The most characters of a model's reply the page shows (the rest is cut, marked with an ellipsis)."""


def last_move_of_others(events: list[dict[str, Any]], mine: set[int]) -> dict[str, Any] | None:
    """The last move of a player not in ``mine`` (player and action), with ``reply``: the text of the last model
    call of the decision that chose it (None for an agent that calls no model); None before any such move."""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.get("kind") in ("action", "fallback") and "action" in event and event.get("player") not in mine:
            player = event["player"]
            reply = None
            for earlier in reversed(events[:index]):
                if earlier.get("player") != player:
                    continue
                if earlier.get("kind") == "observation":  # the decision started here: no model call in it
                    break
                if earlier.get("kind") == "llm_call":
                    reply = str(earlier.get("response") or "")
                    break
            if reply is not None and len(reply) > REPLY_SHOWN:
                reply = reply[:REPLY_SHOWN] + " ..."
            return {"player": player, "action": event["action"], "reply": reply}
    return None


def click_layout(observation: Observation, layouts: dict[str, Callable[[Observation], Any]]) -> dict[str, Any] | None:
    """How a click on the board maps to a legal move of ``observation`` (its game's registered layout,
    ``Registry.add_board_clicks``); None for a game played otherwise.

    Returns:
        ``{"left", "top", "width", "height"}`` (shares of the drawing), ``rows``, ``columns`` and
        ``cells``: ``cells[row][column]`` is the move a click there makes (None: no move); for chess,
        ``squares`` instead (the square names) and ``moves``: ``{from+to: legal move}``.
    """
    layout = layouts.get(observation.game)
    return None if layout is None else layout(observation)
