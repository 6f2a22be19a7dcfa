"""GameBench's report sections: its reasoning categories (Table 3) and its ratings (Table 1), from a run's records."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stratbench.report.unplayed import NONE, beside, unplayed_counts
from stratbench.games.gamebench import EXTRA_CATEGORIES, GAME_IDS, REASONING_CATEGORIES
from stratbench.games.gamebench.published import PUBLISHED_TABLE_1, PUBLISHED_UNPLAYED, TABLE_1_COLUMNS

__all__ = ["gamebench_categories", "gamebench_ratings"]


def gamebench_categories(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """GameBench Table 3 (games per reasoning category) with each agent's mean score per category.

    A category's score averages the agent's mean score over the category's
    games it played here (each game weighted equally); self-play matches are
    left out, as in the average-score table. The rows are Table 3's
    six, then one row per category outside it (Atari Boxing's real-time play),
    shown only when such a game was played. The note gives each agent's
    matches: scored, with the errored and skipped ones beside (in no mean).
    """
    categories = {**REASONING_CATEGORIES, **EXTRA_CATEGORIES}
    known = {g for games in categories.values() for g in games}
    played = [r for r in records if r.get("family") == "gamebench" or r["game"] in known]
    unplayed = unplayed_counts(unscored, lambda r: [s.get("agent") for s in r.get("sides", [])]
                               if r.get("family") == "gamebench" or r.get("game") in known else [])
    if not played and not unplayed:
        return None
    per_game: dict[tuple[str, str], list[float]] = defaultdict(list)
    for record in played:
        if len(record["sides"]) > 1 and len({info["agent"] for info in record["sides"]}) == 1:
            continue  # self-play: an agent against itself always averages the game's mean score
        for side, info in enumerate(record["sides"]):
            per_game[(info["agent"], record["game"])].append(float(record["scores"][side]))
    agents = sorted({agent for agent, _ in per_game} | set(unplayed))
    rows = []
    for category, games in categories.items():
        here = [g for g in games if any(game == g for _, game in per_game)]
        if category in EXTRA_CATEGORIES and not here:
            continue
        cells = []
        for agent in agents:
            means = [sum(v) / len(v) for (a, g), v in per_game.items() if a == agent and g in here]
            cells.append(sum(means) / len(means) if means else None)
        rows.append([category, len(games), ", ".join(games), ", ".join(here) or "–", *cells])
    matches = {agent: len({r["match_id"] for r in played if any(s["agent"] == agent for s in r["sides"])})
               for agent in agents}
    counted = "; ".join(f"{a} {matches[a]}" + (f" ({beside(unplayed.get(a))})" if beside(unplayed.get(a)) else "")
                        for a in agents)
    note = ("The first two columns are GameBench Table 3 as published (the paper's numbers); the agent columns "
            "are this run's mean score per agent over the category's games played here (each game weighted "
            "equally; self-play left out). Scored matches per agent, self-play included, with the errored and "
            f"skipped ones beside (in no mean): {counted}.")
    if any(row[0] in EXTRA_CATEGORIES for row in rows):
        note += (" Atari Boxing is in no Table 3 category (GameBench collected no data on it); its score is "
                 "0.5 + point difference / 200 against the cartridge's boxer.")
    return {
        "title": "GameBench reasoning categories (Table 3) and mean scores",
        "columns": ["category", "games (paper)", "GameBench games (paper)", "played here", *agents],
        "rows": rows,
        "note": note,
    }


def gamebench_ratings(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """GameBench Table 1 from a run: Bradley–Terry ratings overall and per game, with the paper's beside them.

    The run's two-sided GameBench matches (self-play left out) are rated as
    GameBench rated its data: choix's ILSR with ``alpha = 0.001``, ties dropped,
    fractional scores as weights, B = 1000 resamples (seed 0) drawn with weight
    1/N_game overall and uniformly within a game; a rating is the resamples'
    mean. A cell is empty where the agent played no match of the game (GameBench
    shows a prior-only rating there). The paper's rows follow, labelled as the
    paper's, each value under the game it belongs to (Table 1's header is permuted).
    """
    from stratbench.rating.data import MatchResult  # lean: the rating stack (numpy, scipy, choix)
    from stratbench.rating.gamebench import GAMEBENCH_ALPHA, GAMEBENCH_RESAMPLES  # lean: the rating stack

    played = [r for r in records if r["game"] in GAME_IDS]
    unplayed = unplayed_counts(unscored, lambda r: [s.get("agent") for s in r.get("sides", [])]
                               if r.get("game") in GAME_IDS else [])
    if not played and not unplayed:
        return None
    matches = [
        MatchResult(r["game"], tuple(side["agent"] for side in r["sides"]), tuple(float(x) for x in r["scores"]),
                    r["match_id"])
        for r in played
        if len(r["sides"]) == 2 and r["sides"][0]["agent"] != r["sides"][1]["agent"]
    ]
    columns = ["agent", "source", "Overall", *(abbreviation for abbreviation, _ in TABLE_1_COLUMNS), "matches",
               "errored", "skipped"]
    rows: list[list[Any]] = []
    if matches:
        note = _rated_rows(matches, rows)
    else:
        note = "This run has no GameBench match between two different agents to rate (self-play is left out). "
    rated = {row[0] for row in rows}
    rows += [[agent, "this run", None, *[None] * len(TABLE_1_COLUMNS)] for agent in sorted(unplayed)
             if agent not in rated]
    for row in rows:
        counts = unplayed.get(row[0], NONE)
        row += [sum(1 for m in matches if row[0] in m.agents), counts["errored"], counts["skipped"]]
    for agent, values in PUBLISHED_TABLE_1.items():
        cells = [values[0]]
        for (_, game), value in zip(TABLE_1_COLUMNS, values[1:], strict=True):
            cells.append(f"{value:.2f}*" if (agent, game) in PUBLISHED_UNPLAYED else value)
        rows.append([agent, "paper (Table 1)", *cells, None, None, None])
    games = ", ".join(f"{abbreviation} = {game}" for abbreviation, game in TABLE_1_COLUMNS)
    note += (
        f"Bradley–Terry ratings as GameBench computed them: choix ILSR with alpha = {GAMEBENCH_ALPHA} "
        f"(GameBench's regularisation), ties dropped, fractional scores as weights, B = {GAMEBENCH_RESAMPLES} "
        "resamples (seed 0) weighted 1/N_game overall; each rating is the resamples' mean, centred on this "
        "run's agents. Empty: the agent played no match of that game here. matches = the rated matches "
        "(two different agents), errored and skipped = the agent's GameBench matches that were not scored (in no "
        "rating). Paper rows: GameBench Table 1 as "
        "published, each value moved under the game it belongs to (the paper's header permutes the columns); "
        "* marks a published rating of an agent that never played the game (prior only). " + games + "."
    )
    return {"title": "GameBench ratings (Table 1)", "columns": columns, "rows": rows, "note": note}


def _rated_rows(matches: list[Any], rows: list[list[Any]]) -> str:
    """Appends a Table 1 row per agent of ``matches`` (GameBench's bootstrap) to ``rows``; returns a note, if any."""
    from stratbench.rating import bootstrap  # lean: the rating stack (numpy, scipy, choix)
    from stratbench.rating.gamebench import GAMEBENCH_ALPHA, GAMEBENCH_RESAMPLES  # lean: the rating stack

    try:
        summary = bootstrap(matches, mode="gamebench", alpha=GAMEBENCH_ALPHA, n_resamples=GAMEBENCH_RESAMPLES)
    except ValueError as error:
        return f"This run's GameBench matches cannot be rated ({error}). "
    for index, agent in enumerate(summary.agents):
        cells: list[Any] = [summary.mean[index]]
        for _, game in TABLE_1_COLUMNS:
            per_game = summary.per_game.get(game)
            played = per_game is not None and per_game.n_matches[per_game.agents.index(agent)] > 0
            cells.append(per_game.mean[per_game.agents.index(agent)] if played else None)
        rows.append([agent, "this run", *cells])
    return ""
