"""The paper protocol of SPIN-Bench's competitive games: Tic-Tac-Toe, Connect Four, chess.

As SPIN-Bench's released code plays them (digest §4.2–4.6, §7.3): the games'
own wording (:mod:`stratbench.games.spin.spin_paper`), answers read only from a JSON
object ``{"reason", "action"}`` (:func:`read_json_action`, ``spin-json`` in
:data:`~stratbench.scaffolds.parsing.PARSERS`), ``Illegal move, try again``
after an illegal or unreadable answer, 10 retries after the first attempt
(11 attempts) before the game is lost, temperature 0.95, and the paper's
opponents: the perfect solvers for Tic-Tac-Toe and Connect Four, Stockfish at
skill levels 0, 5, 10, 15 and 20 for chess, all in one run (one opponent
``stockfish<level>`` per level, so the level is in every match id and record).
"""

from __future__ import annotations

import json
from typing import Any

from stratbench.core.rejection import EMPTY, NO_ACTION
from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.games.spin.spin_paper import PAPER
from stratbench.protocols import Protocol
from stratbench.registry import Registry

SOURCE = (
    "SPIN-Bench (Yao et al., arXiv 2503.12349) §4 and its released code (spinbench/spinbench, "
    "tasks/{tic_tac_toe,connect4,chess}): wording, JSON answers, retry message and tolerance, temperature"
)
TEMPERATURE = 0.95
"""The released code's sampling temperature for every game call."""
ATTEMPTS = 11
"""The first answer plus the released code's ``illegal_tolerance=10`` retries."""
STOCKFISH_LEVELS = (0, 5, 10, 15, 20)
"""The paper's Stockfish skill levels (§4.2); Table 1's chess draw rate is against level 20."""

_COMMON = {"seats": "half", "illegal_tolerance": ATTEMPTS, "fallback": "forfeit"}
_SUITES = {
    "tictactoe": {"opponents": ("minimax",), "matches": 10},
    "connect4": {"opponents": ("c4solver",), "matches": 10},
    "chess": {"opponents": tuple(f"stockfish{level}" for level in STOCKFISH_LEVELS), "matches": 4},
}


def register(registry: Registry) -> None:
    """Registers the paper protocol of each game of the family."""
    for game, suite in _SUITES.items():
        registry.add_protocol(game, Protocol(
            PAPER,
            source=SOURCE,
            game_options={"protocol": PAPER},
            agent_options={"temperature": TEMPERATURE},
            suite={**_COMMON, **suite},
        ))


def json_objects(reply: str) -> list[str]:
    """Returns the balanced ``{...}`` spans of ``reply``, left to right, not overlapping.

    The same spans as the released code's recursive pattern ``\\{(?:[^{}]|(?R))*\\}``:
    an opening brace without a match is skipped.

    Examples:
        >>> json_objects('a {"x": {"y": 1}} b { {"z": 2}')
        ['{"x": {"y": 1}}', '{"z": 2}']
    """
    spans = []
    start = 0
    while (start := reply.find("{", start)) != -1:
        depth, end = 0, None
        for index in range(start, len(reply)):
            if reply[index] == "{":
                depth += 1
            elif reply[index] == "}":
                depth -= 1
                if depth == 0:
                    end = index
                    break
        if end is None:
            start += 1
            continue
        spans.append(reply[start : end + 1])
        start = end + 1
    return spans


def read_json_action(reply: str, observation: Observation) -> Action:
    """Reads the action of the last valid JSON object in ``reply`` (the released code's reader).

    The ``action`` value is taken as text; ``observation.data["answer_ids"]``,
    when present, maps it to the action id (Tic-Tac-Toe's by-column cells,
    chess's UCI moves). For chess, as the released code, a value that is not a
    legal move but ends with one (its last four characters) is that move. A
    value naming no legal action is returned as is: the runner rejects it.

    Raises:
        ActionParseError: when no JSON object in the reply parses, or the last one has no ``action``.
    """
    parsed: Any = None
    for span in json_objects(reply or ""):
        try:
            parsed = json.loads(span)
        except ValueError:
            continue
    if not isinstance(parsed, dict):
        raise ActionParseError('no JSON object {"reason": ..., "action": ...} in the reply',
                               kind=NO_ACTION if (reply or "").strip() else EMPTY)
    if "action" not in parsed:
        raise ActionParseError('the JSON object has no "action"', kind=NO_ACTION)
    answer = str(parsed["action"]).strip()
    ids: dict[str, str] = observation.data.get("answer_ids") or {}
    if answer in ids:
        return Action(ids[answer])
    if observation.game == "chess" and answer[-4:] in ids:
        return Action(ids[answer[-4:]])
    return Action(answer)
