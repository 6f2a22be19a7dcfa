"""Turns stored match records into everything a report shows (pure computation, no I/O).

The result is a plain dict of builtins — it is written as ``results.json`` and
rendered by :mod:`stratbench.report.render`. Problems the data has (no
matches, one agent, a game with one match, a disconnected comparison graph,
only ties, malformed records) become notes, never exceptions.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from stratbench.core.obfuscation import renaming_of, renaming_part
from stratbench.report.overview import model_overview
from stratbench.report.health import harness_health
from stratbench.match.record import opening_part, version_problem
from stratbench.run.results import (
    ERRORED, RESULTS_FILE, SKIPPED, is_scored, read_records, status_of, unscored_by_agent,
)
from stratbench.rating import (
    MatchResult,
    average_scores,
    bootstrap,
    elo,
    win_probability_matrix,
)
from stratbench.rating.elo import pair_records
from stratbench.redact import redact_argv
from stratbench.report.scales import builtin_scales
from stratbench.report.unplayed import unplayed_counts

__all__ = [
    "ELO_RULE", "OVERALL_RULE", "REPORT_VERSION", "SectionBuilder", "analyse", "elo_by_game", "finite", "malformed",
    "manifest_for", "match_records", "read_match_records", "record_scales", "to_match_results",
]

REPORT_VERSION = 2
OVERALL_RULE = (
    "the overall column is the mean over the matches of games whose side scores are win shares (range 0–1, "
    "summing to 1 in every match); games on other scales are shown in their own column only, never averaged "
    "with these"
)
"""How the overall average score is formed (stated under the table)."""
ELO_RULE = (
    "SPIN-Bench's internal Elo (Table 4), one per game: only matches between two different LLM agents (or an LLM "
    "and a human) count; solvers and baselines are left out. Per pair (wins, losses, draws); every agent starts "
    "at 1000, K = 32, 1000 sweeps over the pairs in sorted order. Ratings are relative to the agents of one game."
)
"""How the per-game Elo is formed (stated under the table)."""
SectionBuilder = Callable[..., "dict[str, Any] | None"]
"""Builds one per-family report section from the scored records, or None if it has nothing to show; a builder
with an ``unscored`` keyword parameter also gets the skipped and errored records of the same protocol."""


def to_match_results(records: Iterable[dict[str, Any]]) -> list[MatchResult]:
    """Converts scored result records to the rating library's match results (skipped and errored ones are left out)."""
    out = []
    for record in records:
        if not is_scored(record):
            continue
        agents = tuple(side["agent"] for side in record["sides"])
        out.append(MatchResult(record["game"], agents, tuple(float(s) for s in record["scores"]), record["match_id"]))
    return out


def analyse(
    records: list[dict[str, Any]],
    *,
    sections: dict[str, SectionBuilder] | None = None,
    resamples: int = 10_000,
    level: float = 0.90,
    ties: str = "drop",
    manifest: dict[str, Any] | None = None,
    scales: dict[str, tuple[tuple[float, float], float | None]] | None = None,
) -> dict[str, Any]:
    """Computes ratings, per-game Elo, average scores, win probabilities, sections and notes.

    Only scored records are rated; skipped and errored ones are listed under
    ``unscored`` (one row each, with reason and fault) and counted per agent
    under ``unscored_by_agent``. Records are taken in match-id order, so the
    result does not depend on the order matches finished in. Memorisation
    probes (``--obfuscate``) are listed and go to the sections but are not
    rated, so that ratings compare with runs without them.

    Args:
        records: Match records (deduplicated by match id; the last one wins).
        sections: Per-family section builders by name (from the registry).
        resamples: Bootstrap resamples B.
        level: Interval coverage.
        ties: Tie policy for Bradley–Terry (``drop`` or ``half``).
        manifest: The reproducibility manifest to embed.
        scales: Each game's ``(score_range, score_sum)``, for games whose records do not carry them
            (None: looked up in the built-in games).

    Returns:
        The report data, builtin types only.
    """
    notes: list[str] = []
    usable = [r for r in records if malformed(r) is None]
    if len(usable) < len(records):
        reasons = sorted({str(malformed(r)) for r in records if malformed(r) is not None})
        notes.append(f"{len(records) - len(usable)} malformed record(s) left out ({'; '.join(reasons)}).")
    latest = sorted({r["match_id"]: r for r in usable}.values(), key=lambda r: r["match_id"])
    unscored = [r for r in latest if not is_scored(r)]
    records = [r for r in latest if is_scored(r)]
    probes = [r for r in records if renaming_of(r)]  # memorisation probes: compared with their originals only
    rated = [r for r in records if not renaming_of(r)]
    matches = to_match_results(rated)
    two_sided = [m for m in matches if len(m.agents) == 2 and m.agents[0] != m.agents[1]]
    known = record_scales(records, notes)
    missing = sorted({r["game"] for r in records} - set(known))
    if scales is None and missing:
        scales = builtin_scales({g: next(r.get("variant") for r in records if r["game"] == g) for g in missing})
    known.update({g: v for g, v in (scales or {}).items() if g not in known})
    data: dict[str, Any] = {
        "version": REPORT_VERSION,
        "manifest": manifest or {},
        "n_matches": len(records),
        "games": sorted({r["game"] for r in records}),
        "protocols": sorted({protocol_of(r) for r in records}) or ["default"],
        "agents": sorted({side["agent"] for r in records for side in r["sides"]}),
        "ratings": None,
        "elo": None,
        "elo_by_game": elo_by_game(rated),
        "win_probability": None,
        # An agent playing itself always averages the mean score: leave self-play out of the averages.
        "average_scores": _average_scores([m for m in matches if len(m.agents) == 1 or len(set(m.agents)) > 1],
                                          known),
        "model_overview": model_overview(records, unscored),
        "health": harness_health(records),
        "sections": [],
        "notes": notes,
        "matches": [_match_row(r) for r in records],
        "unscored": [_unscored_row(r) for r in unscored],
        "unscored_by_agent": unscored_by_agent(unscored),
        "unscored_by_agent_game": _unscored_by_agent_game(unscored),
    }
    counts = {status: sum(1 for r in unscored if status_of(r) == status) for status in (SKIPPED, ERRORED)}
    if unscored:
        notes.append(f"{counts[ERRORED]} errored and {counts[SKIPPED]} skipped match(es) are not rated; "
                     "they are listed under 'Skipped and errored matches'.")
    if probes:
        notes.append(f"{len(probes)} memorisation probe(s) (--obfuscate) are not rated and not in the average "
                     "scores, so that ratings compare with runs without them; each is set beside its original "
                     "under 'Memorisation gap'.")
    late = [(r.get("match_id"), why) for r in records for why in (r.get("metrics_not_computed") or {}).values()]
    if late:
        shown = "; ".join(f"{match}: {why}" for match, why in late[:5]) + ("; …" if len(late) > 5 else "")
        notes.append(f"{len(late)} metric value(s) not computed within their time budget, their matches "
                     f"scored without them ({shown}).")
    if not records:
        notes.append("No match results: nothing to rate.")
        _add_sections(data, sections, records, unscored)
        return data
    agents = sorted({a for m in two_sided for a in m.agents})
    if len(agents) < 2:
        notes.append(
            "Bradley–Terry ratings need two-sided matches between at least two different agents; these results "
            f"have {len(two_sided)} such match(es) and {len(data['agents'])} agent(s) "
            f"({', '.join(data['agents'])}): average scores only."
        )
    else:
        components = _components(two_sided)
        if len(components) > 1:
            shown = "; ".join(", ".join(c) for c in components)
            notes.append(f"The comparison graph is disconnected ({shown}): ratings of different groups are "
                         "not comparable; only the regularisation links them.")
        for game in sorted({m.game for m in two_sided}):
            count = sum(1 for m in two_sided if m.game == game)
            if count < 2:
                notes.append(f"Game {game} has {count} two-sided match: its ratings rest on almost nothing.")
        if ties == "drop" and all(len(set(m.scores)) == 1 for m in two_sided):
            notes.append(f"All {len(two_sided)} two-sided matches are ties, which the 'drop' tie policy leaves "
                         "out: the ratings come from the regularisation only.")
        try:
            summary = bootstrap(two_sided, n_resamples=resamples, level=level, ties=ties)
        except ValueError as error:
            notes.append(f"Ratings could not be computed: {error}.")
        else:
            data["ratings"] = summary.to_dict()
            if summary.warning:
                notes.append(summary.warning)
            if summary.n_failed:
                notes.append(f"{summary.n_failed} of {summary.n_resamples} bootstrap resamples failed to fit "
                             "and were left out.")
            names, matrix = win_probability_matrix(summary.ratings)
            data["win_probability"] = {"agents": list(names), "matrix": [[float(x) for x in row] for row in matrix]}
    if len(data["protocols"]) > 1:
        notes.append(f"These results mix protocols ({', '.join(data['protocols'])}): each family section is "
                     "shown once per protocol; ratings and average scores pool them.")
    _add_sections(data, sections, records, unscored)
    return data


def _add_sections(
    data: dict[str, Any], sections: dict[str, SectionBuilder] | None, records: list[dict[str, Any]],
    unscored: list[dict[str, Any]],
) -> None:
    """Builds every section once per protocol (one with only skipped or errored matches too) into ``data``."""
    protocols = sorted({protocol_of(r) for r in [*records, *unscored]}) or ["default"]
    for name, builder in sorted((sections or {}).items()):
        for protocol in protocols:
            subset = [r for r in records if protocol_of(r) == protocol]
            unplayed = [r for r in unscored if protocol_of(r) == protocol]
            try:
                section = _build(builder, subset, unplayed)
            except Exception as error:  # noqa: BLE001 - a broken section must not cost the whole report
                data["notes"].append(f"Report section {name} failed: {type(error).__name__}: {error}")
                continue
            if section:
                title = f"{section.get('title', name)} · {protocol} protocol"
                data["sections"].append({"name": name, **section, "title": title, "protocol": protocol})


def _unscored_by_agent_game(unscored: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """Returns ``{agent: {game: {"errored", "skipped"}}}``: the counts the score table shows beside its means."""
    counts = unplayed_counts(unscored, lambda r: [(s.get("agent", "?"), str(r.get("game"))) for s in r.get("sides", [])])
    out: dict[str, dict[str, dict[str, int]]] = {}
    for (agent, game), tally in sorted(counts.items()):
        out.setdefault(agent, {})[game] = tally
    return out


def _build(builder: SectionBuilder, records: list[dict[str, Any]], unscored: list[dict[str, Any]]) -> Any:
    """Calls a section builder with the scored records, and the skipped and errored ones when it takes
    ``unscored`` (to show them beside its rates, :mod:`stratbench.report.unplayed`)."""
    try:
        takes_unscored = "unscored" in inspect.signature(builder).parameters
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        takes_unscored = False
    return builder(records, unscored=unscored) if takes_unscored else builder(records)


def protocol_of(record: dict[str, Any]) -> str:
    """Returns the protocol a record was played in (records from before protocols: ``default``)."""
    return str(record.get("protocol") or "default")


def read_match_records(file: Path) -> tuple[list[dict[str, Any]], bool]:
    """Reads a ``results.jsonl``'s match records, checked as :func:`match_records` checks them.

    Returns:
        The match records, and whether a truncated last line (a run killed mid-write) was skipped.

    Raises:
        ValueError: naming the file (and line or record): unreadable, empty, not JSON lines, or no match
            records in it.
    """
    try:
        text = file.read_text(encoding="utf-8", errors="replace")
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise ValueError(f"{file}: empty file, no match records")
        records = read_records(file)
    except OSError as error:
        raise ValueError(f"{file}: cannot read ({error.strerror or error})") from None
    if not records:
        raise ValueError(f"{file}: not a {RESULTS_FILE} (line 1 is not a JSON object)")
    return match_records(file, records), len(records) < len(lines)


def match_records(file: Any, records: Iterable[Any]) -> list[dict[str, Any]]:
    """Returns the match records among a results file's lines, skipping headers and other non-match lines.

    Raises:
        ValueError: naming ``file`` and the record's number, for a record of a newer schema or one that cannot
            be analysed (:func:`malformed`), or when no line is a match record.
    """
    matches = []
    for number, record in enumerate(records, start=1):
        if "scores" not in record and "sides" not in record:
            continue  # a header or other non-match line
        problem = version_problem(record) or (
            None if (why := malformed(record)) is None else f"not a match record ({why})")
        if problem is not None:
            raise ValueError(f"{file}: record {number}: {problem}")
        matches.append(record)
    if not matches:
        raise ValueError(f"{file}: no match records (expected stratbench {RESULTS_FILE} lines with "
                         "'match_id', 'game', 'sides' and 'scores')")
    return matches


def malformed(record: Any) -> str | None:
    """Returns why a match record cannot be analysed, or None when it can."""
    if not isinstance(record, dict):
        return "not an object"
    if not is_scored(record):
        if status_of(record) not in (SKIPPED, ERRORED):
            return f"unknown status {status_of(record)!r}"
        if not isinstance(record.get("match_id"), str) or not isinstance(record.get("sides"), list):
            return "a skipped or errored record needs a 'match_id' and 'sides'"
        return None
    for key in ("match_id", "game", "sides", "scores"):
        if key not in record:
            return f"no {key!r}"
    if not isinstance(record["match_id"], str):
        return "'match_id' is not a string"
    if not isinstance(record["sides"], list) or not all(isinstance(s, dict) and "agent" in s for s in record["sides"]):
        return "'sides' is not a list of objects with an 'agent'"
    if not isinstance(record["scores"], list) or not all(finite(x) and not isinstance(x, bool)
                                                         for x in record["scores"]):
        return "'scores' is not a list of finite numbers"
    try:
        to_match_results([record])
    except (TypeError, ValueError) as error:
        return str(error)
    return None


def record_scales(records: Iterable[dict[str, Any]],
                  notes: list[str] | None = None) -> dict[str, tuple[tuple[float, float], float | None]]:
    """Returns each game's ``(score_range, score_sum)`` from the records that carry them.

    A game whose records disagree gets no scale (and a note), so it stays out of the overall.
    """
    seen: dict[str, set[tuple[tuple[float, float], float | None]]] = {}
    for record in records:
        low_high, total = record.get("score_range"), record.get("score_sum", "absent")
        if (isinstance(low_high, (list, tuple)) and len(low_high) == 2 and all(finite(x) for x in low_high)
                and (total is None or finite(total))):
            seen.setdefault(record["game"], set()).add(((float(low_high[0]), float(low_high[1])),
                                                        None if total is None else float(total)))
    out = {}
    for game, found in sorted(seen.items()):
        if len(found) == 1:
            out[game] = found.pop()
        elif notes is not None:
            notes.append(f"Game {game}: its records give {len(found)} different score scales; it is left out of "
                         "the overall average.")
    return out


def _is_win_share(scale: tuple[tuple[float, float], float | None] | None) -> bool:
    return scale is not None and scale[0] == (0.0, 1.0) and scale[1] == 1.0


def _average_scores(matches: list[MatchResult],
                    scales: dict[str, tuple[tuple[float, float], float | None]]) -> dict[str, Any]:
    scores = average_scores(matches)
    comparable = sorted({m.game for m in matches if len(m.agents) > 1 and _is_win_share(scales.get(m.game))})
    overall = average_scores([m for m in matches if m.game in comparable]).overall
    return {
        "overall": {a: {"mean": s.mean, "n": s.n} for a, s in overall.items()},
        "overall_games": comparable,
        "rule": OVERALL_RULE,
        "scales": {g: None if g not in scales else {"range": list(scales[g][0]), "sum": scales[g][1]}
                   for g in sorted(scores.per_game)},
        "per_game": {g: {a: {"mean": s.mean, "n": s.n} for a, s in per.items()} for g, per in scores.per_game.items()},
    }


def _rated_by_elo(side: dict[str, Any]) -> bool:
    """Tells whether a side belongs to SPIN-Bench's Elo population: an LLM agent or a human player."""
    kind = str(side.get("kind") or "")
    return bool(side.get("model")) or kind == "human" or kind.startswith("human:")


def elo_by_game(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Computes SPIN-Bench's internal Elo per game from the matches between LLM agents (Table 4).

    Returns:
        ``{"rule", "ratings": {game: {agent: elo}}, "matches": {game: n}, "pairs": {game: n},
        "without_llm_pairs": [games with two-sided matches but none between two LLM agents]}``.
    """
    two_sided: dict[str, list[MatchResult]] = {}
    rated: dict[str, list[MatchResult]] = {}
    for record, match in zip(records, to_match_results(records)):
        if len(match.agents) != 2 or match.agents[0] == match.agents[1]:
            continue
        two_sided.setdefault(match.game, []).append(match)
        if all(_rated_by_elo(side) for side in record["sides"]):
            rated.setdefault(match.game, []).append(match)
    return {
        "rule": ELO_RULE,
        "ratings": {g: {a: float(v) for a, v in elo(ms).items()} for g, ms in sorted(rated.items())},
        "matches": {g: len(ms) for g, ms in sorted(rated.items())},
        "pairs": {g: len(pair_records(ms)) for g, ms in sorted(rated.items())},
        "without_llm_pairs": sorted(set(two_sided) - set(rated)),
    }


def _components(matches: list[MatchResult]) -> list[list[str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for m in matches:
        a, b = m.agents
        parent[find(a)] = find(b)
    groups: dict[str, list[str]] = {}
    for agent in list(parent):
        groups.setdefault(find(agent), []).append(agent)
    return sorted(sorted(g) for g in groups.values())


def _unscored_row(record: dict[str, Any]) -> dict[str, Any]:
    return {
        **renaming_part(record),
        **opening_part(record),
        "match_id": record["match_id"],
        "test_id": record.get("test_id", record["match_id"]),
        "game": record.get("game"),
        "variant": record.get("variant"),
        "seed": record.get("seed"),
        "agents": [side.get("agent", "?") for side in record["sides"] if isinstance(side, dict)],
        "subject": record.get("subject", 0),
        "scores": [],
        "result": status_of(record),
        "terminal": record.get("reason"),
        "status": status_of(record),
        "fault": record.get("fault"),
        "reason": record.get("reason"),
        "transcript": record.get("transcript"),
    }


def seat_names(record: dict[str, Any]) -> dict[str, Any]:
    """``{"seats": {player: "agent (role)"}}`` from a played record's sides (their players and roles), for the
    replay's step titles and its legend; nothing for a record without them."""
    seats: dict[str, str] = {}
    for side in record.get("sides") or []:
        players, roles = side.get("players"), side.get("roles")
        if isinstance(players, list) and isinstance(roles, list) and len(players) == len(roles):
            for player, role in zip(players, roles):
                seats[str(player)] = f"{side.get('agent')} ({role})"
    return {"seats": seats} if seats else {}


def _match_row(record: dict[str, Any]) -> dict[str, Any]:
    return {
        **renaming_part(record),
        **opening_part(record),
        "match_id": record["match_id"],
        "test_id": record.get("test_id", record["match_id"]),
        "game": record["game"],
        "variant": record.get("variant"),
        "seed": record.get("seed"),
        "agents": [side["agent"] for side in record["sides"]],
        "subject": record.get("subject", 0),
        **seat_names(record),
        "scores": record["scores"],
        "score_range": record.get("score_range"),
        "result": record.get("result"),
        "terminal": record.get("terminal"),
        "turns": record.get("turns"),
        "illegal": record.get("illegal"),
        "tokens": record.get("tokens", 0),
        "cost_usd": record.get("cost_usd", 0.0),
        "transcript": record.get("transcript"),
        "metrics": record.get("metrics", {}),
    }


def finite(value: Any) -> bool:
    """Tells whether a value is a finite number."""
    return isinstance(value, (int, float)) and math.isfinite(value)


def manifest_for(records: list[dict[str, Any]], *, command: list[str] | None = None,
                 versions: dict[str, str] | None = None) -> dict[str, Any]:
    """Builds the reproducibility manifest: versions, models, scaffolds, seeds, cassettes, command."""
    records = [r for r in records if isinstance(r, dict)]
    sides = [s for r in records if isinstance(r.get("sides"), list) for s in r["sides"] if isinstance(s, dict)]
    models = sorted({str(s["model"]) for s in sides if s.get("model")})
    scaffolds = sorted({str(s["scaffold"]) for s in sides if s.get("scaffold")})
    cassettes = {
        str(r["cassette"].get("path")): str(r["cassette"]["sha256"])
        for r in records
        if isinstance(r.get("cassette"), dict) and r["cassette"].get("sha256")
    }
    found_versions = dict(versions or {})
    for record in records:
        versions_seen = record.get("versions")
        for name, value in (versions_seen.items() if isinstance(versions_seen, dict) else ()):
            found_versions.setdefault(name, value)
    return {
        "packages": found_versions,
        "models": models,
        "scaffolds": scaffolds,
        "seeds": sorted({r["seed"] for r in records if isinstance(r.get("seed"), int)}),
        "cassettes": dict(sorted(cassettes.items())),
        "command_line": redact_argv(list(command or [])),
        "run_ids": sorted({str(r["run_id"]) for r in records if r.get("run_id")}),
    }
