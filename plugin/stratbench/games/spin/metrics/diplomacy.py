"""Diplomacy metrics (SPIN-Bench §6.8): supply centers, order success by type, basic skill.

Per match, :func:`diplomacy_metrics` replays the match from its history (the
engine is deterministic and the game has no chance, so the replay rebuilds
the live game's ``phase_log``) and reports, per power:

* ``supply_centers`` and ``controlled_regions`` (the engine's influence) at
  the end, and ``sc_by_phase``: supply centers after every processed phase;
* ``orders``: for move, attack, support-self and support-others orders of the
  movement phases, ``success``, ``total`` and ``rate``. As in SPIN-Bench's
  evaluation code, an order succeeds when the engine reports no result for
  its unit (no bounce, dislodgement, cut or void); an attack is a move into a
  province held by another power's unit at the start of the phase; a
  support is "self" when the supported unit is not another power's and
  "others" when it is (support-holds included). SPIN-Bench's released code
  counts support-self totals twice; this does not;
* ``hold`` and ``convoy`` order counts, ``orders_dropped`` (invalid orders)
  and ``order_sets_dropped`` (whole order sets dropped by the ``drop``
  fallback after the agent's attempts ran out: the power held);
* ``won`` and ``years_to_win`` (1901 counts as year 1), the basic-skill figures.

The aggregate functions below work on result records and sum an agent's
powers, as SPIN-Bench does for an agent that controls several powers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action
from stratbench.games.spin.diplomacy import DROPPED_ORDER_SET, FIRST_YEAR, POWERS, groups_from_history

__all__ = [
    "ORDER_TYPES", "agent_players", "basic_skill", "classify", "diplomacy_metrics", "order_outcomes",
    "order_success", "phase_order", "rate", "replay", "summary_rows", "supply_centers_over_time",
]

ORDER_TYPES = ("move", "attack", "support_self", "support_others")


def replay(game: Game, history: list[dict[Any, str]], seed: int = 0) -> Any:
    """Replays a Diplomacy match from its history; returns the final state (with ``phase_log``).

    A paper-protocol match's power groups are read back from its first joint action.
    """
    state = game.new_initial_state(seed)
    if getattr(game, "paper", False):
        state.set_groups(groups_from_history(history))
    for joint in history:
        state.apply({int(p): Action.from_text(a) for p, a in joint.items()})
    return state


def classify(order: str) -> str:
    """Returns an order's kind: ``move``, ``support``, ``convoy``, ``hold``, ``retreat``, ``disband``,
    ``build`` or ``waive``.

    Examples:
        >>> classify("A PAR - BUR"), classify("F BRE S A PAR - PIC"), classify("A MAR H")
        ('move', 'support', 'hold')
    """
    tokens = order.split()
    if tokens == ["WAIVE"]:
        return "waive"
    kind = tokens[2] if len(tokens) > 2 else "H"
    return {"S": "support", "C": "convoy", "-": "move", "R": "retreat", "D": "disband", "B": "build"}.get(kind, "hold")


def order_outcomes(entry: dict[str, Any], power: str) -> dict[str, list[int]]:
    """Counts ``[success, total]`` per order type for one power in one movement phase log entry."""
    counts = {kind: [0, 0] for kind in (*ORDER_TYPES, "hold", "convoy")}
    foreign = {u.split()[1][:3] for p, units in entry["units"].items() if p != power for u in units}
    for order in entry["orders"].get(power, []):
        tokens = order.split()
        unit = " ".join(tokens[:2])
        success = 1 if not entry["results"].get(unit) else 0
        kind = classify(order)
        kinds = []
        if kind == "move":
            kinds = ["move"] + (["attack"] if tokens[3][:3] in foreign else [])
        elif kind == "support":
            kinds = ["support_others" if tokens[4][:3] in foreign else "support_self"]
        elif kind in ("hold", "convoy"):
            kinds = [kind]
        for name in kinds:
            counts[name][0] += success
            counts[name][1] += 1
    return counts


def rate(success: int, total: int) -> float | None:
    """Returns ``success / total``, or None when there were no orders."""
    return None if total == 0 else success / total


def diplomacy_metrics(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Computes the per-power metrics of one match (see the module docstring)."""
    state = replay(game, outcome.history, seed)
    influence = state.engine.get_state()["influence"]
    winners = state.winners()
    final_phase = state.phase_log[-1]["phase"] if state.phase_log else ""
    group = state.winning_group() if getattr(game, "paper", False) else None
    metrics: dict[int, dict[str, Any]] = {}
    for player, power in enumerate(POWERS):
        totals = {kind: [0, 0] for kind in (*ORDER_TYPES, "hold", "convoy")}
        dropped = sets_dropped = 0
        for entry in state.phase_log:
            reasons = entry["dropped"].get(power, [])
            sets_dropped += reasons.count(DROPPED_ORDER_SET)
            dropped += len(reasons) - reasons.count(DROPPED_ORDER_SET)
            if entry["type"] != "M":
                continue
            for kind, (s, t) in order_outcomes(entry, power).items():
                totals[kind][0] += s
                totals[kind][1] += t
        won = power in winners or (group is not None and player in group)
        metrics[player] = {
            "supply_centers": len(state.engine.powers[power].centers),
            "controlled_regions": len(influence.get(power) or []),
            "sc_by_phase": {e["phase"]: len(e["centers"][power]) for e in state.phase_log},
            "orders": {k: {"success": s, "total": t, "rate": rate(s, t)} for k, (s, t) in totals.items()
                       if k in ORDER_TYPES},
            "hold_orders": totals["hold"][1],
            "convoy_orders": totals["convoy"][1],
            "orders_dropped": dropped,
            "order_sets_dropped": sets_dropped,
            "won": won,
            "years_to_win": int(final_phase[1:5]) - FIRST_YEAR + 1 if won and final_phase else None,
        }
    return metrics


# -- aggregates over result records ------------------------------------------------


def agent_players(record: dict[str, Any], agent: str) -> list[int]:
    """Returns the players (powers) the agent labelled ``agent`` controls in a record."""
    return [p for side in record["sides"] if side["agent"] == agent for p in side["players"]]


def _diplomacy_records(records: Iterable[dict[str, Any]], agent: str) -> list[tuple[dict[str, Any], list[int]]]:
    found = []
    for record in records:
        if record.get("game") in ("diplomacy", "diplomacy-nopress"):
            players = agent_players(record, agent)
            if players:
                found.append((record, players))
    return found


def supply_centers_over_time(records: Iterable[dict[str, Any]], agent: str) -> dict[str, float]:
    """Returns the agent's mean supply centers (summed over its powers) after each phase."""
    sums: dict[str, list[float]] = defaultdict(list)
    for record, players in _diplomacy_records(records, agent):
        phases = record["metrics"][str(players[0])].get("sc_by_phase", {})
        for phase in phases:
            sums[phase].append(sum(record["metrics"][str(p)]["sc_by_phase"][phase] for p in players))
    return {phase: sum(sums[phase]) / len(sums[phase]) for phase in sorted(sums, key=phase_order)}


def phase_order(phase: str) -> tuple[int, int, int]:
    """Returns a sort key putting phase names in game order (``S1901M`` < ``F1901M`` < ``F1901R`` < ``W1901A``)."""
    return (int(phase[1:5]), "SFW".index(phase[0]), "MRA".index(phase[5]))


def order_success(records: Iterable[dict[str, Any]], agent: str) -> dict[str, dict[str, Any]]:
    """Returns the agent's success count, total and rate per order type over all its matches and powers."""
    totals = {kind: [0, 0] for kind in ORDER_TYPES}
    for record, players in _diplomacy_records(records, agent):
        for player in players:
            for kind, values in record["metrics"][str(player)]["orders"].items():
                totals[kind][0] += values["success"]
                totals[kind][1] += values["total"]
    return {k: {"success": s, "total": t, "rate": rate(s, t)} for k, (s, t) in totals.items()}


def basic_skill(records: Iterable[dict[str, Any]], agent: str) -> dict[str, Any]:
    """Summarises SPIN-Bench's basic-skill figures for an agent: wins, years to win, final supply centers."""
    games = []
    for record, players in _diplomacy_records(records, agent):
        values = [record["metrics"][str(p)] for p in players]
        years = [v["years_to_win"] for v in values if v["won"]]
        games.append({"match_id": record.get("match_id"), "won": bool(years),
                      "years_to_win": min(years) if years else None,
                      "supply_centers": sum(v["supply_centers"] for v in values)})
    wins = [g["years_to_win"] for g in games if g["won"]]
    return {
        "matches": len(games),
        "wins": len(wins),
        "mean_years_to_win": sum(wins) / len(wins) if wins else None,
        "mean_supply_centers": sum(g["supply_centers"] for g in games) / len(games) if games else None,
        "games": games,
    }


def summary_rows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns one Table-3/10-style row per agent: order S/T and rates, mean SC and CR at the end."""
    records = list(records)
    agents = sorted({side["agent"] for r in records if r.get("game") in ("diplomacy", "diplomacy-nopress")
                     for side in r["sides"]})
    rows = []
    for agent in agents:
        matches = _diplomacy_records(records, agent)
        sc = [sum(r["metrics"][str(p)]["supply_centers"] for p in ps) for r, ps in matches]
        cr = [sum(r["metrics"][str(p)]["controlled_regions"] for p in ps) for r, ps in matches]
        rows.append({
            "agent": agent,
            "matches": len(matches),
            "orders": order_success(records, agent),
            "mean_supply_centers": sum(sc) / len(sc) if sc else None,
            "mean_controlled_regions": sum(cr) / len(cr) if cr else None,
        })
    return rows
