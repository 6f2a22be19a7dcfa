"""The human seat's recorded moves: kept beside the match's cassette, fed back when the cassette replays.

A match with a model has a cassette (the model's answers); the person's moves
go next to it (a match without a model: where its cassette would be), one
file per player: ``<cassette>.human-p<player>.json``, a
list of ``{"turn", "action"}`` (with ``"refused"``: the game's reason when it
refused that move and the person tried again). When the match's cassette
replays (``--record-mode none``, or ``once`` with the cassette present; without
a model: the moves file present), the
human agent plays these moves instead of asking anyone: the replay needs no
page and no terminal. A replay stops with a
:class:`~stratbench.core.types.HarnessError` naming the move when the game
refuses a move it accepted when recorded, or when the moves run out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stratbench.core.types import Action, HarnessError, Observation
from stratbench.llm.cassettes import cassette_path, will_record
from stratbench.llm.client import match_calls
from stratbench.run.results import replace_text


def moves_path(cassette: str | Path, player: int) -> Path:
    """Where the moves of ``player`` of the match recorded in ``cassette`` are kept."""
    return Path(f"{cassette}.human-p{player}.json")


class HumanMoves:
    """The moves of one human player in one match: recorded as played, or replayed.

    Args:
        path: The moves file; None outside a session's match (moves are then only in the transcript).
        replaying: Whether the match's cassette replays (the moves are read from ``path``).
    """

    def __init__(self, path: Path | None, replaying: bool) -> None:
        self.path = path
        self.replaying = replaying and path is not None
        self.moves: list[dict[str, Any]] = []
        self._next = 0
        if self.replaying:
            assert path is not None
            try:
                self.moves = json.loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                raise HarnessError(f"the match's cassette replays but the human's moves are not recorded: "
                                   f"{path} is missing") from None
            except ValueError as error:
                raise HarnessError(f"{path}: not a list of recorded human moves ({error})") from None

    @classmethod
    def for_match(cls, player: int, options: dict[str, Any]) -> HumanMoves:
        """The moves of ``player`` in the match being played.

        Beside the match's cassette when a model plays (replayed when the cassette replays); else at the
        path a cassette of the match would have (``options``: ``cassette_dir``, ``match_id``,
        ``record_mode``), replayed as a cassette would be (``none``, or ``once`` with the file present).
        """
        calls = match_calls.get(None)
        if calls is not None and calls.cassette is not None:
            return cls(moves_path(calls.cassette, player), not calls.recording)
        match_id, root = options.get("match_id"), options.get("cassette_dir")
        if not match_id or root is None:
            return cls(None, False)
        path = moves_path(cassette_path(Path(root), str(match_id)), player)
        return cls(path, not will_record(path, str(options.get("record_mode") or "once")))

    def replay(self, observation: Observation) -> Action:
        """The next recorded move.

        Raises:
            HarnessError: when the game refused the previous recorded move although it was accepted when
                recorded, or when the recorded moves ran out.
        """
        if observation.feedback:
            previous = self.moves[self._next - 1] if self._next else None
            if previous is None or not previous.get("refused"):
                shown = previous["action"] if previous else "?"
                raise HarnessError(f"{self.path}: the recorded human move {shown!r} (turn {observation.turn}) is "
                                   f"refused on replay: {observation.feedback}")
        if self._next >= len(self.moves):
            raise HarnessError(f"{self.path}: the recorded human moves ran out at turn {observation.turn}")
        move = self.moves[self._next]
        self._next += 1
        return Action.from_text(str(move["action"]))

    def record(self, observation: Observation, action: Action) -> None:
        """Keeps the person's move (and, on a retry, why the game refused the one before)."""
        if observation.feedback and self.moves:
            self.moves[-1]["refused"] = observation.feedback
        self.moves.append({"turn": observation.turn, "action": action.to_text()})
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_text(self.path, json.dumps(self.moves, indent=1) + "\n")
