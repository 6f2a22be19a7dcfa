"""The memorisation gap report section: scores on renamed tasks (``--obfuscate``) against the originals.

A memorisation probe plays a task once more under other names (see
:mod:`stratbench.core.obfuscation`); its record's ``game_options`` name the
renaming (``obfuscation``: ``mystery:7``; ``obfuscation_tag``:
``obf-mystery-s7``, with the salt's digest when salted). One row per agent,
game (a PDDL domain apart: variant ``blocksworld/p01`` counts under
``planning: blocksworld``) and renaming, and for an agent renamed in two
games or more one row over all of them (:data:`ALL_GAMES`, each score
scaled by its game's ``score_range``): the mean score, and for a renaming
the paired difference (renamed − original) over the matches that share game,
variant, seed, seat and opponents, with a percentile bootstrap 95% interval
(:func:`stratbench.report.scaffolds.paired_difference`). Where the interval
excludes zero the row says ``gap``, else ``no evidence of a gap`` (``too few
pairs`` under :data:`MIN_PAIRS`). The agents
are the model sides of each match (a match without one: its subject, an
offline baseline, whose renamed score should equal its original one).
Skipped and errored matches are counted beside. The page leads with agent,
game, renaming, mean score, Δ, interval and verdict; the counts fold into
the table's detail (:mod:`stratbench.report.layout`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from stratbench.core.obfuscation import renaming_of
from stratbench.report.scaffolds import RESAMPLES, paired_difference
from stratbench.report.unplayed import NONE, unplayed_counts

__all__ = ["ALL_GAMES", "ORIGINAL", "memorisation", "unrenamed_games"]

ORIGINAL = "original"
"""The renaming column of the rows of the original tasks."""

GAP = "gap"
NO_GAP = "no evidence of a gap"
FEW = "too few pairs"

ALL_GAMES = "all games (scores scaled 0-1)"
"""The game column of an agent's row over every game it played renamed: each score scaled by its game's
``score_range``, so a verdict can rest on a few tasks from each game."""

MIN_PAIRS = 5
"""Pairs a verdict needs: below it a bootstrap of a handful of differences is overconfident (one pair gives a
zero-width interval), so the row says ``too few pairs``."""


def _game_label(record: dict[str, Any]) -> str:
    """The game, with the domain a variant names (``blocksworld/p01``: ``planning: blocksworld``)."""
    game = str(record.get("game") or "?")
    variant = record.get("variant")
    if isinstance(variant, str) and "/" in variant:
        return f"{game}: {variant.split('/', 1)[0]}"
    return game


def _agent_sides(record: dict[str, Any]) -> list[tuple[int, str]]:
    """The sides a row counts: every model side, else the subject's."""
    sides = record.get("sides") or []
    models = [(i, str(side.get("agent", "?"))) for i, side in enumerate(sides) if side.get("model")]
    if models or not sides:
        return models
    subject = record.get("subject", 0)
    subject = subject if isinstance(subject, int) and 0 <= subject < len(sides) else 0
    return [(subject, str(sides[subject].get("agent", "?")))]


def _scaled(record: dict[str, Any], index: int) -> float | None:
    """A side's score scaled to 0-1 by the record's ``score_range``; None without a usable range."""
    scale = record.get("score_range")
    if not (isinstance(scale, list) and len(scale) == 2 and all(isinstance(x, (int, float)) for x in scale)
            and scale[0] < scale[1]):
        return None
    return (float(record["scores"][index]) - scale[0]) / (scale[1] - scale[0])


def _total_counts(counts: list[dict[str, int]]) -> dict[str, int]:
    return {kind: sum(found[kind] for found in counts) for kind in NONE}


def _spec(record: dict[str, Any]) -> str:
    options = record.get("game_options") or {}
    return str(options.get("obfuscation") or "")


def memorisation(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """The section (see the module); None when no scored record played a renamed task."""
    if not any(renaming_of(record) for record in records):
        return None
    # (agent, game label) -> pairing key -> renaming (or ORIGINAL) -> score
    scores: dict[tuple[str, str], dict[tuple, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    specs: dict[str, str] = {}
    # agent -> (game label, pairing key) -> renaming -> score scaled to 0-1 by the game's score_range
    pooled: dict[str, dict[tuple, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for record in records:
        renaming = renaming_of(record) or ORIGINAL
        if renaming != ORIGINAL:
            specs[renaming] = _spec(record)
        for index, agent in _agent_sides(record):
            opponents = tuple(str(side.get("agent", "?")) for j, side in enumerate(record["sides"]) if j != index)
            key = (record.get("game"), record.get("variant"), record.get("seed"), index, opponents)
            scores[(agent, _game_label(record))][key][renaming] = float(record["scores"][index])
            scaled = _scaled(record, index)
            if scaled is not None:
                pooled[agent][(_game_label(record), *key)][renaming] = scaled
    unplayed = unplayed_counts(list(unscored), lambda r: [(agent, _game_label(r), renaming_of(r) or ORIGINAL)
                                                          for _, agent in _agent_sides(r)])
    renamed_games: dict[str, set[str]] = defaultdict(set)  # agent -> the game labels it played renamed
    for (agent, game), keyed in scores.items():
        if any(name != ORIGINAL for played in keyed.values() for name in played):
            renamed_games[agent].add(game)
    for agent, games in renamed_games.items():  # renamed in two games or more: one row over all of them
        if len(games) > 1:
            scores[(agent, ALL_GAMES)] = {key: played for key, played in pooled[agent].items() if key[0] in games}
    rows = []
    for (agent, game), keyed in sorted(scores.items(), key=lambda item: (item[0][0], item[0][1] == ALL_GAMES,
                                                                          item[0][1])):
        renamings = sorted({name for played in keyed.values() for name in played if name != ORIGINAL})
        if not renamings:
            continue
        for renaming in (ORIGINAL, *renamings):
            played = [found[renaming] for found in keyed.values() if renaming in found]
            counts = _total_counts([unplayed.get((agent, label, renaming), NONE) for label in renamed_games[agent]]) \
                if game == ALL_GAMES else unplayed.get((agent, game, renaming), NONE)
            mean = sum(played) / len(played) if played else None
            row: list[Any] = [agent, game, renaming, specs.get(renaming, ""), len(played), counts["errored"],
                              counts["skipped"], mean]
            differences = [found[renaming] - found[ORIGINAL] for found in keyed.values()
                           if renaming in found and ORIGINAL in found]
            if renaming != ORIGINAL and differences:
                diff, low, high = paired_difference(differences)
                verdict = FEW if len(differences) < MIN_PAIRS else GAP if low > 0 or high < 0 else NO_GAP
                row += [len(differences), diff, f"[{low:.3f}, {high:.3f}]", verdict]
            else:
                row += [None, None, None, None]
            rows.append(row)
    if not rows:
        return None
    return {
        "title": "Memorisation gap",
        "note": "Each renamed task (--obfuscate) beside its original: matches pair on game, variant, seed, seat "
                "and opponents; Δ is the mean paired score difference (renamed − original) with a percentile "
                f"bootstrap 95% interval ({RESAMPLES} resamples, seed 0); 'gap' where the interval excludes zero "
                f"(a verdict needs {MIN_PAIRS} pairs). "
                f"'{ALL_GAMES}' pools an agent's pairs over its games, each score scaled by its game's range. "
                "A score that falls under renaming was earned partly by the names (memorised), not the reasoning.",
        "columns": ["agent", "game", "renaming", "mode:seed", "matches", "errored", "skipped", "mean score",
                    "pairs", "Δ renamed − original", "95% interval", "verdict"],
        "rows": rows,
        "label_columns": ["agent", "game", "renaming"],
        "key_columns": ["mean score", "Δ renamed − original", "95% interval", "verdict"],
    }


def unrenamed_games(records: Iterable[dict[str, Any]]) -> list[str]:
    """The games of a run with ``--obfuscate`` that played no renamed task (their class does not support it)."""
    played: dict[str, bool] = {}
    for record in records:
        game = record.get("game")
        if game:
            played[str(game)] = played.get(str(game), False) or renaming_of(record) is not None
    return sorted(game for game, renamed in played.items() if not renamed)
