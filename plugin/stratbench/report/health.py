"""The harness's own health: how often each agent's answers were refused, why, and flags that blame the harness.

One computation (:func:`harness_health`) serves ``stratbench audit`` and the
report's health section. Per game × agent it counts, over decisions and
matches, illegal moves, unreadable answers, cut answers, fallbacks and
forfeits, and the rejected answers by reason kind
(:data:`~stratbench.core.rejection.REASON_KINDS`). Flags name the games where
the harness, not the model, is the likely cause of refusals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from stratbench.core.rejection import CUT_OFF, NOT_LEGAL, OTHER_NOTATION, REASON_KINDS
from stratbench.run.results import is_scored, read_transcript

NOTATION_THRESHOLD = 0.2
"""Default: a game is flagged when more than this share of its rejections name a legal action in another
notation."""
UNREADABLE_THRESHOLD = 0.5
"""Default: a game is flagged when every agent whose answers are read had at least this many unreadable
answers per decision."""
EXAMPLES = 3
"""Verbatim answers shown per game, agent and reason kind."""
EXAMPLE_CHARS = 200
"""The most of one example answer shown."""

NOTATION_FLAG = "notation"
UNREADABLE_FLAG = "unreadable"
LISTED_ACTIONS_NOTE = (
    "Listed actions against the engine's: not recorded in match records or transcripts, so not checked."
)
RATE_COLUMNS = ("illegal", "unreadable", "truncated", "fallbacks")
"""Counts shown per decision; ``forfeited`` is per match."""


def harness_health(
    records: Iterable[dict[str, Any]],
    events: dict[str, list[dict[str, Any]]] | None = None,
    *,
    notation_threshold: float = NOTATION_THRESHOLD,
    unreadable_threshold: float = UNREADABLE_THRESHOLD,
) -> dict[str, Any]:
    """Returns the per game × agent refusal table, the reasons with examples, and the flags.

    Args:
        records: Stored match records (only scored ones count).
        events: Transcript events by match id, for the verbatim examples (and the reason kinds of records
            written before they were counted); None: examples are left out.
        notation_threshold: See :data:`NOTATION_THRESHOLD`.
        unreadable_threshold: See :data:`UNREADABLE_THRESHOLD`.

    Returns:
        ``rows`` (one per game and agent), ``reasons`` (per game, agent and kind: the count and the most
        common answers), ``flags`` (``kind``, ``game``, ``message``), ``thresholds`` and ``notes``.
    """
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    answers: dict[tuple[str, str, str], Counter[str]] = {}
    for record in records:
        if not is_scored(record) or not record.get("game"):
            continue
        match_events = (events or {}).get(record.get("match_id", ""), [])
        for index, side in enumerate(record.get("sides") or []):
            row = rows.setdefault((record["game"], side["agent"]), _empty_row(record["game"], side["agent"]))
            _add_side(row, record, index, side, match_events, answers)
    table = [_with_rates(rows[key]) for key in sorted(rows)]
    reasons = [
        {"game": game, "agent": agent, "kind": kind, "count": rows[(game, agent)]["rejected"].get(kind, 0),
         "examples": [{"answer": text, "count": count} for text, count in found.most_common(EXAMPLES)]}
        for (game, agent, kind), found in sorted(answers.items(), key=lambda item: _kind_order(item[0]))
    ]
    return {
        "rows": table,
        "reasons": reasons,
        "flags": _flags(table, notation_threshold, unreadable_threshold),
        "thresholds": {"notation": notation_threshold, "unreadable": unreadable_threshold},
        "kinds": list(REASON_KINDS),
        "notes": [LISTED_ACTIONS_NOTE],
    }


def _empty_row(game: str, agent: str) -> dict[str, Any]:
    return {"game": game, "agent": agent, "read": False, "matches": 0, "decisions": 0, "illegal": 0,
            "unreadable": 0, "truncated": 0, "fallbacks": 0, "forfeited": 0, "rejected": {}}


def _add_side(
    row: dict[str, Any], record: dict[str, Any], index: int, side: dict[str, Any],
    events: list[dict[str, Any]], answers: dict[tuple[str, str, str], Counter[str]],
) -> None:
    """Adds one side of one match to its row, and its rejected answers to ``answers``."""
    def at(name: str) -> int:
        values = record.get(name) or []
        return int(values[index]) if index < len(values) and values[index] is not None else 0

    players = set(side.get("players") or [index])
    rejected_events = [e for e in events if e.get("kind") == "rejected" and e.get("player") in players]
    counted = (record.get("rejected") or [])
    kinds = dict(counted[index]) if index < len(counted) else {}
    if not counted and rejected_events:  # a record written before the counts: the transcript has them
        kinds = dict(Counter(str(e.get("why") or "unknown") for e in rejected_events))
    row["read"] = row["read"] or bool(side.get("model")) or side.get("kind") in ("llm", "human")
    row["matches"] += 1
    row["decisions"] += at("decisions")
    unreadable = at("format_errors") if record.get("format_errors") is not None else sum(
        n for k, n in kinds.items() if k not in (NOT_LEGAL, CUT_OFF))
    cut_read = max(int(kinds.get(CUT_OFF, 0)) - at("truncated"), 0)  # cut replies read as they were, then refused
    row["illegal"] += max(at("illegal") - unreadable, 0)
    unreadable = max(unreadable - cut_read, 0)  # the token limit's doing, counted under truncated
    row["unreadable"] += unreadable
    row["truncated"] += cut_read
    row["truncated"] += at("truncated")
    row["fallbacks"] += at("fallbacks")
    row["forfeited"] += int(record.get("forfeited_by_side") == index)
    for kind, count in kinds.items():
        row["rejected"][kind] = row["rejected"].get(kind, 0) + int(count)
    for event in rejected_events:
        key = (record["game"], side["agent"], str(event.get("why") or "unknown"))
        text = str(event.get("answer", event.get("error", "")))
        answers.setdefault(key, Counter())[text[:EXAMPLE_CHARS]] += 1


def _with_rates(row: dict[str, Any]) -> dict[str, Any]:
    decisions, matches = row["decisions"], row["matches"]
    answers = decisions + row["illegal"] + row["unreadable"]  # each rejected answer is one more than its decision's
    rates = {name: row[name] / decisions if decisions else 0.0 for name in RATE_COLUMNS}
    for name in ("illegal", "unreadable"):  # shares of the answers given, at most 1
        rates[name] = row[name] / answers if answers else 0.0
    rates["forfeited"] = row["forfeited"] / matches if matches else 0.0
    ordered = {kind: row["rejected"][kind] for kind in (*REASON_KINDS, *sorted(row["rejected"]))
               if kind in row["rejected"]}
    return {**row, "rejected": ordered, "rates": rates}


def _kind_order(key: tuple[str, str, str]) -> tuple[str, str, int, str]:
    game, agent, kind = key
    return game, agent, REASON_KINDS.index(kind) if kind in REASON_KINDS else len(REASON_KINDS), kind


def _flags(rows: list[dict[str, Any]], notation_threshold: float, unreadable_threshold: float) -> list[dict[str, Any]]:
    """Returns the games where the harness, not the model, is the likely cause of refusals."""
    flags = []
    for game in sorted({row["game"] for row in rows}):
        played = [row for row in rows if row["game"] == game and row["decisions"]]
        rejected = sum(sum(row["rejected"].values()) for row in played)
        notation = sum(row["rejected"].get(OTHER_NOTATION, 0) for row in played)
        if rejected and notation / rejected > notation_threshold:
            flags.append({"kind": NOTATION_FLAG, "game": game, "message": (
                f"{game}: {notation} of {rejected} rejected answers ({notation / rejected:.0%}) name a legal action "
                f"in another notation (over {notation_threshold:.0%}): the reader may not take the notation "
                "models use")})
        read = [row for row in played if row["read"]] or played
        # evidence needs an agent that was read elsewhere: one unreadable in every game it played (a base model
        # echoing its prompt) says nothing of this game's prompt
        able = [row for row in read if any(other["agent"] == row["agent"] and other["game"] != game
                                           and other["decisions"]
                                           and other["rates"]["unreadable"] < unreadable_threshold for other in rows)]
        if able and all(row["rates"]["unreadable"] >= unreadable_threshold for row in read):
            shown = ", ".join(f"{row['agent']} {row['rates']['unreadable']:.0%}" for row in read)
            flags.append({"kind": UNREADABLE_FLAG, "game": game, "message": (
                f"{game}: every agent's answers were unreadable at {unreadable_threshold:.0%} of its answers or "
                f"more ({shown}), though {', '.join(sorted({row['agent'] for row in able}))} was read in other "
                "games: the prompt or the reader may be at fault")})
    return flags


def rejection_events(
    records: Iterable[dict[str, Any]], sources: list[Path]
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Reads the ``rejected`` events of the records' transcripts (``transcripts/<run>/<match>.json[.gz]``).

    Args:
        records: Match records; those with a ``transcript`` path and a rejected answer are read.
        sources: Directories the transcript paths are relative to, tried in order.

    Returns:
        The events by match id, and one line per transcript that is missing or unreadable.
    """
    events: dict[str, list[dict[str, Any]]] = {}
    problems: list[str] = []
    for record in records:
        relative = record.get("transcript")
        if not relative or not is_scored(record) or not any(record.get("illegal") or []):
            continue
        candidates = [source / relative for source in sources]
        candidates += [c.with_name(c.name + ".gz") for c in candidates if not c.name.endswith(".gz")]
        found = next((c for c in candidates if c.is_file()), None)
        if found is None:
            problems.append(f"{record['match_id']}: transcript {relative} not found")
            continue
        try:
            read = read_transcript(found).get("events", [])
        except (OSError, ValueError, EOFError) as error:
            problems.append(f"{record['match_id']}: unreadable transcript {found} ({error})")
            continue
        events[record["match_id"]] = [e for e in read if isinstance(e, dict) and e.get("kind") == "rejected"]
    return events, problems


HEALTH_COLUMNS = ["game", "agent", "matches", "decisions", "illegal", "unreadable", "truncated", "fallbacks",
                  "forfeited", "rejected by reason"]
"""The health table's columns; the counts carry their rate (per decision; forfeited: per match)."""


def health_rows(health: dict[str, Any]) -> list[list[Any]]:
    """Returns the health table's rows as plain cells (:data:`HEALTH_COLUMNS`)."""
    return [
        [row["game"], row["agent"], row["matches"], row["decisions"],
         *(f"{row[name]} ({row['rates'][name]:.1%})" for name in (*RATE_COLUMNS, "forfeited")),
         ", ".join(f"{kind}: {count}" for kind, count in row["rejected"].items()) or "none"]
        for row in health["rows"]
    ]


def reason_lines(health: dict[str, Any]) -> list[str]:
    """Returns one plain line per game, agent and reason kind: its count and its most common answers."""
    lines = []
    for reason in health["reasons"]:
        shown = "; ".join(f"{_one_line(e['answer'])!r} x{e['count']}" for e in reason["examples"])
        lines.append(f"{reason['game']}, {reason['agent']}, {reason['kind']} ({reason['count']}): {shown}")
    return lines


def _one_line(text: str) -> str:
    return " ".join(text.split())
