"""Why an answer was rejected: a reason kind from a fixed set, classified from the error and the answer.

The kinds tell a model's mistake from a reader's blind spot: ``not legal here``
is a move the rules forbid, while ``legal action in another notation`` is an
answer that names a legal action in a spelling the reader does not take (UCI
where SAN is read, a row-by-row cell number under a by-column protocol).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from stratbench.core.types import ActionParseError, IllegalActionError, Observation

EMPTY = "empty"
CUT_OFF = "cut off"
NO_ACTION = "no action found"
SEVERAL = "several actions found"
NOT_LEGAL = "not legal here"
OTHER_NOTATION = "legal action in another notation"

REASON_KINDS = (EMPTY, CUT_OFF, NO_ACTION, SEVERAL, NOT_LEGAL, OTHER_NOTATION)
"""Every reason kind, in the order reports list them."""

_STRIP = " \t\r\n\"'`*_.,;:!?[]()<>#"
_LABELLED = re.compile(r"(?:action|move|answer|choice)\s*[*_]*\s*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_JSON_VALUE = re.compile(r'"(?:action|move|action_id)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)', re.IGNORECASE)
_FENCE = re.compile(r"```[\w-]*\s*\n?(.*?)```", re.DOTALL)
_MAX_TOKENS = 400
"""Words of a reply scanned for a move in another notation (a long reasoning is cut there)."""


def classify_rejection(
    error: ActionParseError | IllegalActionError,
    observation: Observation,
    *,
    answer: str | None = None,
    chosen: str | None = None,
    cut: bool = False,
) -> str:
    """Returns the reason kind of one rejected answer.

    Args:
        error: What the reader (:class:`ActionParseError`) or the legality check raised.
        observation: The decision's observation (legal actions, the reader's answer map).
        answer: The reply's text, when the agent kept it.
        chosen: The action id the reader took from the reply (an illegal action only).
        cut: Whether the output-token limit cut the reply (read as it was, ``--on-truncation read``): a reply
            with no readable action then counts as ``cut off``, not as the model's unreadable answer.
    """
    kind = getattr(error, "kind", None)
    if cut and isinstance(error, ActionParseError):
        return CUT_OFF
    if kind in (EMPTY, CUT_OFF, SEVERAL):
        return kind
    if isinstance(error, ActionParseError) and kind is None and not (answer or "").strip() and not chosen:
        return EMPTY if answer is not None else NO_ACTION
    structured = [*([chosen] if chosen else []), *answer_candidates(answer or "")]
    if other_notation(structured, observation) is not None:
        return OTHER_NOTATION
    if isinstance(error, IllegalActionError):
        return NOT_LEGAL
    if answer and other_notation(_words(answer), observation, unique=True) is not None:
        return OTHER_NOTATION
    return kind if kind in REASON_KINDS else NO_ACTION


def answer_candidates(reply: str) -> list[str]:
    """Returns the places a reply states its action: JSON ``action`` values, ``Action:`` lines, a one-line
    fence, and the whole reply when it is one short line."""
    found: list[str] = []
    for raw in _JSON_VALUE.findall(reply):
        try:
            found.append(str(json.loads(raw)))
        except ValueError:
            continue
    found += _LABELLED.findall(reply)
    found += [f.strip() for f in _FENCE.findall(reply) if f.strip() and "\n" not in f.strip()]
    bare = reply.strip()
    if bare and "\n" not in bare and len(bare) <= 40:
        found.append(bare)
    return found


def other_notation(texts: Iterable[str], observation: Observation, *, unique: bool = False) -> str | None:
    """Returns the legal action one of ``texts`` names in a notation the reader does not take, or None.

    Two notations are known: an observation's ``answer_ids`` (the answer spelling a paper protocol reads,
    mapped to the engine's ids: an answer that is an engine id the map sends elsewhere is the other
    notation), and a chess board in ``observation.data["board"]`` (SAN and UCI).

    Args:
        texts: Candidate action texts, most trusted first.
        observation: The decision's observation.
        unique: Only when exactly one legal action is named so (free text naming several is no evidence).
    """
    legal = set(observation.legal_actions)
    if not legal:
        return None
    ids: dict[str, str] = observation.data.get("answer_ids") or {}
    board = observation.data.get("board")
    named: list[str] = []
    for text in texts:
        cleaned = text.strip().strip(_STRIP)
        if not cleaned:
            continue
        found = _by_answer_map(cleaned, legal, ids) or _by_chess_board(cleaned, legal, ids, board)
        if found is not None and found not in named:
            if not unique:
                return found
            named.append(found)
    return named[0] if len(named) == 1 else None


def _by_answer_map(text: str, legal: set[str], ids: dict[str, str]) -> str | None:
    """An engine id written where the reader maps answers through ``ids`` to another id that is not legal."""
    if ids and text in legal and ids.get(text, text) != text and ids.get(text) not in legal:
        return text
    return None


def _by_chess_board(text: str, legal: set[str], ids: dict[str, str], board: Any) -> str | None:
    """A SAN or UCI move legal on ``board`` whose SAN is a legal action, in a spelling the reader did not read."""
    if board is None or not hasattr(board, "parse_uci") or (text in legal and not ids):
        return None
    for parse in (board.parse_uci, board.parse_san):
        try:
            move = parse(text)
        except ValueError:
            continue
        if move in board.legal_moves:
            san = board.san(move)
            return san if san in legal else None
    return None


def _words(reply: str) -> list[str]:
    """Returns the reply's first words, as move candidates."""
    return reply.split()[:_MAX_TOKENS]


def reason_counts(kinds: Iterable[str]) -> dict[str, int]:
    """Counts reason kinds, in :data:`REASON_KINDS` order."""
    listed = list(kinds)
    return {kind: listed.count(kind) for kind in REASON_KINDS if kind in listed}
