"""Match records for rating, and the loaders that read them from disk.

This is the only module of :mod:`stratbench.rating` that does I/O. Two formats are read:

* GameBench's ``matches.json``: a JSON array of objects, each with a ``"game"`` key and one key
  per agent whose value is that agent's score.
* stratbench's ``results.jsonl``: one JSON object per line with ``"game"``, ``"match_id"``,
  ``"sides"`` (a list of objects with an ``"agent"`` label) and ``"scores"`` (one number per
  side). Other keys are ignored; header lines (``"type": "header"``) and lines without
  ``"scores"`` are skipped.

Matches with any number of sides are kept. The Bradley–Terry fit, the bootstrap and Elo rate
two-sided matches only and ignore the others (see :mod:`stratbench.rating.bradley_terry`).
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stratbench.match.record import version_problem

__all__ = [
    "MatchResult",
    "ResultsFormatError",
    "ResultsFormatWarning",
    "load_matches",
]


class ResultsFormatError(ValueError):
    """Signals a results file that cannot be read; the message names the file and line."""


class ResultsFormatWarning(UserWarning):
    """Signals a recoverable problem in a results file, such as a truncated last line."""


@dataclass(frozen=True)
class MatchResult:
    """Holds the outcome of one match.

    Attributes:
        game: The game id, e.g. ``"sea_battle"``.
        agents: The agent label of each side, in seat order.
        scores: The score of each side, aligned with ``agents``.
        match_id: An identifier for the match, when the source has one.
    """

    game: str
    agents: tuple[str, ...]
    scores: tuple[float, ...]
    match_id: str | None = None

    def __post_init__(self) -> None:
        agents = tuple(self.agents)
        scores = tuple(float(s) for s in self.scores)
        if not isinstance(self.game, str) or not self.game:
            raise ValueError(f"game must be a non-empty string, got {self.game!r}")
        if len(agents) != len(scores):
            raise ValueError(f"{len(agents)} agents but {len(scores)} scores")
        if not agents:
            raise ValueError("a match needs at least one side")
        if not all(isinstance(a, str) and a for a in agents):
            raise ValueError(f"agent labels must be non-empty strings, got {agents!r}")
        if not all(math.isfinite(s) for s in scores):
            raise ValueError(f"scores must be finite, got {scores!r}")
        object.__setattr__(self, "agents", agents)
        object.__setattr__(self, "scores", scores)


def load_matches(path: str | Path) -> list[MatchResult]:
    """Reads match results from a GameBench ``matches.json`` or a stratbench ``results.jsonl``.

    The format is detected from the content: a file whose first non-blank character is ``[`` is
    read as a GameBench array, one starting with ``{`` as JSON lines. A truncated or otherwise
    unparsable *last* line of a JSON-lines file is skipped with a :class:`ResultsFormatWarning`
    and the earlier lines are kept.

    Args:
        path: The file to read.

    Returns:
        The matches in file order.

    Raises:
        ResultsFormatError: If the file is empty, is not JSON, or a record lacks a required key
            or has a value of the wrong type.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if not stripped:
        raise ResultsFormatError(f"{path}: line 1: file is empty")
    if stripped[0] == "[":
        return _load_gamebench(path, text)
    if stripped[0] == "{":
        return _load_jsonl(path, text)
    line = text[: len(text) - len(stripped)].count("\n") + 1
    raise ResultsFormatError(
        f"{path}: line {line}: not JSON (expected a GameBench array or JSON lines)"
    )


def _line_of(text: str, pos: int) -> int:
    """Returns the 1-based line number of character offset ``pos``."""
    return text.count("\n", 0, pos) + 1


def _load_gamebench(path: Path, text: str) -> list[MatchResult]:
    """Parses a GameBench array element by element, so errors can name a line."""
    decoder = json.JSONDecoder()
    pos = text.index("[") + 1
    matches: list[MatchResult] = []
    item = 0
    try:
        while True:
            pos = _skip_space(text, pos)
            if text.startswith("]", pos):
                pos += 1
                break
            if item:
                if not text.startswith(",", pos):
                    raise json.JSONDecodeError("expected ',' or ']'", text, pos)
                pos = _skip_space(text, pos + 1)
            start = pos
            obj, pos = decoder.raw_decode(text, pos)
            matches.append(_gamebench_record(obj, f"{path}: line {_line_of(text, start)}"))
            item += 1
    except json.JSONDecodeError as exc:
        raise ResultsFormatError(f"{path}: line {exc.lineno}: not valid JSON: {exc.msg}") from exc
    if text[pos:].strip():
        raise ResultsFormatError(f"{path}: line {_line_of(text, pos)}: extra data after the array")
    return matches


def _skip_space(text: str, pos: int) -> int:
    """Returns the offset of the next non-whitespace character at or after ``pos``."""
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _gamebench_record(obj: Any, where: str) -> MatchResult:
    """Converts one GameBench object ``{"game": g, agentA: sA, agentB: sB}`` to a match."""
    if not isinstance(obj, dict):
        raise ResultsFormatError(f"{where}: expected an object, got {type(obj).__name__}")
    game = obj.get("game")
    if not isinstance(game, str) or not game:
        raise ResultsFormatError(f"{where}: missing or invalid 'game' key")
    agents = [k for k in obj if k != "game"]
    if len(agents) < 2:
        raise ResultsFormatError(f"{where}: expected at least two agent keys besides 'game'")
    scores = [_number(obj[a], f"{where}: score of {a!r}") for a in agents]
    return _match(game, agents, scores, None, where)


def _load_jsonl(path: Path, text: str) -> list[MatchResult]:
    """Parses stratbench JSON lines, tolerating only a broken last line."""
    lines = text.splitlines()
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    matches: list[MatchResult] = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"{path}: line {i + 1}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == last and i > 0:
                warnings.warn(
                    f"{where}: skipped a truncated or unparsable last line ({exc.msg})",
                    ResultsFormatWarning,
                    stacklevel=3,
                )
                break
            raise ResultsFormatError(f"{where}: not valid JSON: {exc.msg}") from exc
        if not isinstance(obj, dict):
            raise ResultsFormatError(f"{where}: expected an object, got {type(obj).__name__}")
        newer = version_problem(obj)
        if newer is not None:
            raise ResultsFormatError(f"{where}: {newer}")
        if obj.get("type") == "header" or "scores" not in obj or obj.get("status", "scored") != "scored":
            continue  # a header, or a skipped or errored match (never rated)
        matches.append(_jsonl_record(obj, where))
    return matches


def _jsonl_record(obj: dict[str, Any], where: str) -> MatchResult:
    """Converts one stratbench result record to a match."""
    for key in ("game", "match_id", "sides"):
        if key not in obj:
            raise ResultsFormatError(f"{where}: missing key {key!r}")
    game, match_id, sides, scores = obj["game"], obj["match_id"], obj["sides"], obj["scores"]
    if not isinstance(game, str) or not game:
        raise ResultsFormatError(f"{where}: 'game' must be a non-empty string")
    if not isinstance(match_id, (str, int)) or isinstance(match_id, bool):
        raise ResultsFormatError(f"{where}: 'match_id' must be a string")
    if not isinstance(sides, list) or not sides:
        raise ResultsFormatError(f"{where}: 'sides' must be a non-empty list")
    agents = []
    for k, side in enumerate(sides):
        if not isinstance(side, dict) or not isinstance(side.get("agent"), str):
            raise ResultsFormatError(f"{where}: sides[{k}] needs a string 'agent'")
        agents.append(side["agent"])
    if not isinstance(scores, list) or len(scores) != len(agents):
        raise ResultsFormatError(f"{where}: 'scores' must be a list with one number per side")
    values = [_number(s, f"{where}: scores[{k}]") for k, s in enumerate(scores)]
    return _match(game, agents, values, str(match_id), where)


def _number(value: Any, where: str) -> float:
    """Returns ``value`` as a finite float, or raises naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ResultsFormatError(f"{where}: expected a number, got {value!r}")
    if not math.isfinite(value):
        raise ResultsFormatError(f"{where}: expected a finite number, got {value!r}")
    return float(value)


def _match(
    game: str, agents: list[str], scores: list[float], match_id: str | None, where: str
) -> MatchResult:
    """Builds a :class:`MatchResult`, turning validation errors into format errors."""
    try:
        return MatchResult(game, tuple(agents), tuple(scores), match_id)
    except ValueError as exc:
        raise ResultsFormatError(f"{where}: {exc}") from exc
