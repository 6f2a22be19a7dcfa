"""The human seat's recorded moves: kept beside the match's cassette, fed back when the cassette replays.

A match with a model has a cassette (the model's answers); the person's moves
go next to it (a match without a model: where its cassette would be), one
file per player: ``<cassette>.human-p<player>.json``, a
list of ``{"turn", "action"}`` (with ``"refused"``: the game's reason when it
refused that move and the person tried again). Until the match reaches its
end the file reads ``{"unfinished": true, "moves": [...]}``: a game stopped
half-way (Ctrl-C, SIGTERM, an error) leaves a file that says so, and a
replay refuses it as such. When the match's cassette
replays (``--record-mode none``, or ``once`` with the cassette present; without
a model: the moves file present), the
human agent plays these moves instead of asking anyone: the replay needs no
page and no terminal. A replay stops with a
:class:`~stratbench.core.types.HarnessError` naming the file: when it is not a
list of moves (:func:`read_moves`), is from an unfinished game, when the game
refuses a move it accepted when recorded, or when the moves run out.
"""

from __future__ import annotations

import glob
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


def recorded_moves_files(cassette: Path) -> list[Path]:
    """The moves files kept beside ``cassette`` (one per human player), by name."""
    return sorted(cassette.parent.glob(glob.escape(cassette.name) + ".human-p*.json"))


class MovesFileError(ValueError):
    """A moves file that cannot be replayed: one line naming the file and what is wrong."""


def read_moves(path: Path) -> list[dict[str, Any]]:
    """The moves recorded in ``path``, checked: a list of ``{"turn": N, "action": "text"}`` (and ``"refused"``).

    Raises:
        FileNotFoundError: when there is no such file.
        MovesFileError: when the file is not such a list, or is from an unfinished game.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise
    except (OSError, ValueError, RecursionError) as error:
        raise MovesFileError(f"{path}: not a readable JSON file of recorded human moves ({error})") from None
    if isinstance(data, dict) and data.get("unfinished") is True:
        count = len(data["moves"]) if isinstance(data.get("moves"), list) else 0
        raise MovesFileError(f"{path}: recorded in an unfinished game (stopped after {count} move(s) of the "
                             f"person's, before the match's end): it cannot be replayed; play the match again")
    if not isinstance(data, list):
        raise MovesFileError(f"{path}: expected a list of recorded human moves ({{\"turn\": N, \"action\": "
                             f"\"...\"}}), got {_kind(data)}")
    for number, move in enumerate(data, 1):
        problem = _move_problem(move)
        if problem is not None:
            raise MovesFileError(f"{path}: move {number} of {len(data)}: {problem}")
    return data


def _move_problem(move: Any) -> str | None:
    """What is wrong with one recorded move, or None."""
    if not isinstance(move, dict):
        return f"expected an object with \"turn\" and \"action\", got {_kind(move)}"
    for key, kind, wanted in (("turn", int, "a whole number"), ("action", str, "a text")):
        if key not in move:
            return f"no \"{key}\""
        if not isinstance(move[key], kind) or isinstance(move[key], bool):
            return f"\"{key}\" must be {wanted}, got {_kind(move[key])}"
    if "refused" in move and not isinstance(move["refused"], str):
        return f"\"refused\" must be a text, got {_kind(move['refused'])}"
    return None


def _kind(value: Any) -> str:
    """A JSON value named for a message (``an object``, ``a number (1)``)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return f"a number ({value!r})"


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
                self.moves = read_moves(path)
            except FileNotFoundError:
                raise HarnessError(f"the match's cassette replays but the human's moves are not recorded: "
                                   f"{path} is missing") from None
            except MovesFileError as error:
                raise HarnessError(str(error)) from None

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
        self._write({"unfinished": True, "moves": self.moves})

    def finish(self, ended: bool) -> None:
        """Marks the moves complete when the match reached its end (``ended``); else the file stays marked
        unfinished."""
        if ended and self.moves and not self.replaying:
            self._write(self.moves)

    def _write(self, value: Any) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        replace_text(self.path, json.dumps(value, indent=1) + "\n")
