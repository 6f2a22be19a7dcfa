"""The regression gate: pass, fail or not yet, from sequential tests on paired matches.

A model upgrade is gated the way chess engines gate a patch (Fishtest,
OpenBench, fastchess): matches are **paired**, and a sequential probability
ratio test (GSPRT, :mod:`stratbench.rating.sprt`) on the pair results answers
one of three things per game and agent:

* ``pass`` — the LLR reached its upper bound: H1 (no regression, ``elo1``)
  accepted;
* ``fail`` — the LLR reached its lower bound: H0 (a regression of ``elo0``)
  accepted;
* ``inconclusive`` — neither bound yet: more pairs are needed (an estimate of
  how many, and of their cost when the records carry costs, is given).

Units:

* **against a baseline run** — a seed of a two-seat game played in both
  seatings by the new agent in this run and by the old agent in the
  baseline, against the same opponents (the same test, variant, seed and
  renaming; with an agent map NEW=OLD the candidate's seat is renamed,
  never its opponent's); against a baseline recorded without ``--pairs``
  (no seed in both seatings) a unit is one match in the same seating; a
  game of one or many seats: one match. Its result is the mean score
  difference per game, ``d`` in [-1, 1] after normalizing by the range;
* **head to head** (no baseline, an agent map NEW=OLD, both agents in one
  run) — two matches of one pairing with the seats swapped: the i-th match
  with NEW in the first seat and the i-th with NEW in the second (a gated
  run plays each seed in both seatings, so a pair is one seed).

A unit whose games are move for move those of an earlier unit (the records'
``game_digest``: from one start position, the same actions) counts once and
is named as a repeat: a deterministic agent from the empty board plays the
same game every seed, which is no new evidence (``--openings book`` gives
each seed its own position). A match of this run without its partner is not used; it is counted as an
incomplete unit, with why (baseline matches this run did not play are
not). A match errored by the model or its provider counts as a loss for
that side (engine testers count a crash or a time loss so); one errored by
the harness voids its unit (head to head, any errored match voids its
pair: its record does not say which model was at fault). Every score is
normalized by its game's ``score_range`` first, so games are never pooled
on raw scales. Win/draw/loss games (range [0, 1], every score 0, ½ or 1)
against a baseline are tested on the units' points ``(1 + d) / 2`` in
normalized Elo (:func:`stratbench.rating.sprt.sprt_grid`), which reads a
drop the same whatever the old model scored against the opponent; head to
head on pentanomial pair counts (a pair scores 0, ½, 1, 1½ or 2) in
normalized or logistic Elo; every other game on ``(1 + d) / 2`` with H0 a
mean drop of ``score_margin`` of the range and H1 no drop.

Each test is sequential along its units in the gate's order
(:func:`unit_order`: a hash of test, variant, seed and renaming, unrelated
to seats and seed blocks) and stops at the first bound it crosses, so the
answer holds whenever the run stops (Wald's bounds).

Error control: Bonferroni over the K (agent, game) tests of one gate — each
test runs at ``alpha / K`` and ``beta / K``. Overall the gate fails when any
test fails (the chance of a false alarm over all tests is at most ``beta``),
passes only when every test passes (the chance that a regression of the
margin passes is at most ``alpha``), and is inconclusive otherwise. Nothing
to compare (no shared agent, no shared match) is :class:`NothingCompared`,
never a pass.

Exit statuses (:data:`CLI_EXIT`, :data:`PYTEST_EXIT`): pass 0, fail 1,
inconclusive 6 (0 or 1 with ``--gate-inconclusive pass|fail``), nothing
compared 4, the same from ``stratbench gate`` and ``pytest --baseline``; a
malformed input is 2 from ``stratbench gate`` and pytest's usage error (4,
before any match) under ``--baseline``.

The rating-interval check of earlier versions stays as a note.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.obfuscation import renaming_part
from stratbench.match.record import opening_part
from stratbench.report.scales import builtin_scales

__all__ = [
    "CLI_EXIT", "FAIL", "GATE_MODES", "INCONCLUSIVE", "PASS", "PYTEST_EXIT", "BaselineError", "GameTest",
    "GateResult", "GateSettings", "NothingCompared", "check", "decide", "head_to_head", "rating_drop",
    "expected_units", "finite_number", "holds_both_seatings", "plan_lines", "rows_from_records", "unit_order",
    "unit_place",
    "validate_report",
]

PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
GATE_MODES = ("inconclusive", "pass", "fail")
"""What ``--gate-inconclusive`` turns an inconclusive answer into."""

CLI_EXIT = {PASS: 0, FAIL: 1, INCONCLUSIVE: 6, "bad input": 2, "nothing compared": 4}
"""``stratbench gate`` exit statuses (inconclusive and nothing compared as under pytest)."""
PYTEST_EXIT = {PASS: 0, FAIL: 1, INCONCLUSIVE: 6, "bad input": 4, "nothing compared": 4}
"""pytest exit statuses under ``--baseline`` (4 is pytest's usage error)."""


NORMALIZED_ELO_SHOWN = 500
"""Beyond this a normalized Elo estimate is shown as a bound (a unit spread so small that it means little)."""


class BaselineError(ValueError):
    """A results.json of the wrong shape; the message is one line naming the field."""


class NothingCompared(ValueError):
    """The two runs share no agent or no match: the gate cannot answer."""


@dataclass(frozen=True)
class GateSettings:
    """How strict the gate is.

    Attributes:
        elo0: H0, the regression the gate must catch, in Elo (default -50).
        elo1: H1, no regression, in Elo (default 0).
        alpha: Chance that a regression of ``elo0`` passes (over all tests).
        beta: Chance that an unchanged agent fails (over all tests).
        elo_model: ``logistic`` or ``normalized`` Elo for win/draw/loss games.
        score_margin: H0 for other games: a mean drop of this share of the score range (default 0.1).
        agent_map: Current agent label → baseline agent label (a model upgrade).
        tolerance: Rating points for the rating-interval note.
    """

    elo0: float = -50.0
    elo1: float = 0.0
    alpha: float = 0.05
    beta: float = 0.05
    elo_model: str = "normalized"
    score_margin: float = 0.1
    agent_map: dict[str, str] = field(default_factory=dict)
    tolerance: float = 0.0


@dataclass
class GameTest:
    """One sequential test: an agent against its baseline (or head to head) on one game."""

    agent: str
    base_agent: str
    game: str
    pairing: str
    """``baseline`` or ``head-to-head``."""
    model: str
    """``pentanomial`` (head to head, win/draw/loss pairs), ``difference`` (against a baseline, win/draw/loss: the
    score difference of each unit, tested in normalized Elo) or ``points`` (any other game: a normalized difference)."""
    pairs: int
    """Complete pairs found (the test may have decided after fewer: ``decided_at``)."""
    incomplete: int
    decision: str
    llr: float
    lower: float
    upper: float
    estimate: float | None
    interval: tuple[float | None, float | None]
    unit: str
    """``Elo`` (logistic or normalized) or ``score`` (the mean normalized difference, -1..1)."""
    llr_path: list[float]
    decided_at: int | None
    """The pair at which the path first crossed a bound (None: not yet)."""
    seed_spread: float | None
    """Standard deviation of the normalized paired difference across seeds (None under 2 pairs)."""
    more_pairs: int | None = None
    more_cost: float | None = None
    games: int | None = None
    """Baseline mode, win/draw/loss: games per side in a unit (2: a seed in both seatings; 1: one match)."""
    score_difference: float | None = None
    """Baseline mode: the mean score difference per game, new − old, against the same opponents (normalized, -1..1)."""
    score_interval: tuple[float | None, float | None] = (None, None)
    """Its 95% interval from the units' own spread (None: fewer than 2 units, or all units equal)."""
    all_equal: bool = False
    """Every unit used has the same value: no interval can be drawn from them."""
    why_incomplete: list[str] = field(default_factory=list)
    charged: int = 0
    """Matches of this run errored by the model or its provider, counted as its losses."""
    voided: list[str] = field(default_factory=list)
    """Match ids of units left out because a match errored by the harness (or by another side)."""
    repeats: int = 0
    """Units left out because their games repeat an earlier unit's move for move (no new evidence)."""

    @property
    def noun(self) -> str:
        """What one unit of this test is called: a pair (head to head) or a unit (baseline)."""
        return "pair" if self.pairing == "head-to-head" else "unit"

    def line(self) -> str:
        """Returns the one-line summary printed by the gate."""
        who = self.agent if self.agent == self.base_agent else f"{self.agent} vs {self.base_agent}"
        if self.pairing == "head-to-head":
            who = f"{self.agent} vs {self.base_agent} head to head"
        used = self.pairs if self.decided_at is None else self.decided_at
        text = (f"{who}: {self.game}: LLR {self.llr:+.2f} ({self.lower:+.2f}, {self.upper:+.2f}) "
                f"after {used}{'' if used == self.pairs else f' of {self.pairs}'} {self.noun}(s)")
        if self.pairing == "baseline" and self.score_difference is not None:
            text += f"; score difference per game {self.score_difference + 0.0:+.3f}"
            if self.all_equal:
                text += f" (all {used} {self.noun}(s) equal: no interval)"
            elif self.score_interval[0] is not None and self.score_interval[1] is not None:
                text += f" [{self.score_interval[0]:+.3f}, {self.score_interval[1]:+.3f}]"
            if self.estimate is not None and self.model != "points" and not self.all_equal:
                if abs(self.estimate) > NORMALIZED_ELO_SHOWN:  # a change of more than a spread per unit
                    text += f", normalized Elo {'<' if self.estimate < 0 else '>'} {self.estimate / abs(self.estimate) * NORMALIZED_ELO_SHOWN:+g}"
                else:
                    text += f", normalized Elo {self.estimate + 0.0:+.3g}"
        elif self.all_equal:
            text += f"; all {used} {self.noun}(s) equal: no interval"
        elif self.estimate is not None:
            low, high = self.interval
            bracket = f" [{low:+.3g}, {high:+.3g}]" if low is not None and high is not None else ""
            text += f"; {self.unit} {self.estimate + 0.0:+.3g}{bracket}"
        if self.charged:
            text += f"; {self.charged} errored match(es) counted as losses"
        if self.voided:
            text += (f"; {len(self.voided)} errored match(es) voided their {self.noun}(s)"
                     + (" (harness faults)" if self.pairing == "baseline" else " (which side was at fault is not "
                                                                                "recorded)"))
        if self.repeats:
            text += (f"; {self.repeats} repeat {self.noun}(s) not counted (the same games as an earlier {self.noun}: "
                     "positions that differ come from --openings book)")
        if self.incomplete:
            reasons = f" ({'; '.join(self.why_incomplete)})" if self.why_incomplete else ""
            text += f"; {self.incomplete} incomplete {self.noun}(s) not used{reasons}"
        if self.decision == INCONCLUSIVE:
            if self.more_pairs is None:
                text += f"; more {self.noun}s needed (how many cannot be estimated yet)"
            else:
                text += f"; about {self.more_pairs} more {self.noun}(s)"
                if self.more_cost is not None:
                    text += f" (about ${self.more_cost:.2f})"
        return text

    def to_dict(self) -> dict[str, Any]:
        """Returns builtin types for results.json."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


@dataclass
class GateResult:
    """What the gate found."""

    tests: list[GameTest]
    warnings: list[str]
    settings: GateSettings = field(default_factory=GateSettings)
    k: int = 0
    """The number of tests the error rates are split over (at least ``len(tests)``)."""

    @property
    def decision(self) -> str:
        """``fail`` when any test failed, ``pass`` when all passed, else ``inconclusive``."""
        if any(t.decision == FAIL for t in self.tests):
            return FAIL
        if self.tests and all(t.decision == PASS for t in self.tests):
            return PASS
        return INCONCLUSIVE

    @property
    def failed(self) -> bool:
        """Tells whether any test failed."""
        return self.decision == FAIL

    @property
    def failures(self) -> list[str]:
        """The failing tests' lines."""
        return [t.line() for t in self.tests if t.decision == FAIL]

    @property
    def passes(self) -> list[str]:
        """The passing tests' lines."""
        return [t.line() for t in self.tests if t.decision == PASS]

    def error_control(self) -> str:
        """Says how the error rates are split over the tests."""
        k = max(self.k, len(self.tests))
        s = self.settings
        return (f"Bonferroni over {k} test(s): each at alpha {s.alpha / k:.4g}, beta {s.beta / k:.4g} "
                f"(H0 {_h0(s)}, H1 {_h1(s)})")

    def explain(self) -> str:
        """Returns a one-screen explanation."""
        head = {PASS: "passed", FAIL: "FAILED", INCONCLUSIVE: "INCONCLUSIVE (not yet decided)"}[self.decision]
        lines = [f"stratbench gate: {head}"]
        tag = {FAIL: "FAIL  ", PASS: "ok    ", INCONCLUSIVE: "more  "}
        for wanted in (FAIL, INCONCLUSIVE, PASS):
            lines += [f"  {tag[wanted]}{t.line()}" for t in self.tests if t.decision == wanted]
        lines.append(f"  note  {self.error_control()}")
        lines += [f"  note  {m}" for m in self.warnings]
        if self.next_step():
            lines.append(f"  next  {self.next_step()}")
        return "\n".join(lines)

    def next_step(self) -> str | None:
        """What to run next when undecided, in one line (None when decided or not estimated yet)."""
        more = self.matches_to_decide()
        if self.decision != INCONCLUSIVE or not more:
            return None
        return (f"the same command with --gate-until-decided --budget {more} (one process, without -n; --resume "
                f"keeps what this run played): about {more} more match(es) on average")

    def matches_to_decide(self) -> int | None:
        """About how many more matches the undecided tests need on average (None: not estimated yet)."""
        needed = [t.more_pairs * (2 if t.pairing == "head-to-head" else t.games or 1)
                  for t in self.tests if t.decision == INCONCLUSIVE and t.more_pairs is not None]
        return sum(needed) or None

    def to_dict(self) -> dict[str, Any]:
        """Returns the gate data for results.json."""
        s = self.settings
        return {
            "decision": self.decision,
            "error_control": self.error_control(),
            "settings": {"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                         "elo_model": s.elo_model, "score_margin": s.score_margin},
            "tests": [t.to_dict() for t in self.tests],
            "notes": list(self.warnings),
            "next": self.next_step(),
        }


def _h0(s: GateSettings) -> str:
    return f"{s.elo0:+g} {s.elo_model} Elo or a score drop of {s.score_margin:g}"


def _h1(s: GateSettings) -> str:
    return f"{s.elo1:+g} Elo or no score drop"


def rows_from_records(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Returns a report-like ``{"agents", "matches"}`` of the scored records (the last per match id)."""
    latest = {r["match_id"]: r for r in records if r.get("status", "scored") == "scored" and "scores" in r}
    rows = [{**renaming_part(r), **opening_part(r), "match_id": r["match_id"], "game": r["game"],
             "agents": [side["agent"] for side in r["sides"]],
             "scores": r["scores"], "seed": r.get("seed"), "variant": r.get("variant"),
             "subject": r.get("subject", 0), "score_range": r.get("score_range"), "cost_usd": r.get("cost_usd")}
            for _, r in sorted(latest.items())]
    errored = {r["match_id"]: r for r in records if r.get("status") == "errored" and r["match_id"] not in latest}
    unscored = [{**renaming_part(r), **opening_part(r), "match_id": r["match_id"], "game": r.get("game"),
                 "status": "errored",
                 "fault": r.get("fault"), "agents": [side.get("agent") for side in r.get("sides", [])],
                 "seed": r.get("seed"), "variant": r.get("variant"), "subject": r.get("subject", 0),
                 "cost_usd": r.get("cost_usd")}
                for _, r in sorted(errored.items())]
    return {"agents": sorted({a for row in rows for a in row["agents"]}), "matches": rows, "unscored": unscored}


# ---------------------------------------------------------------- input shape

def finite_number(value: Any) -> bool:
    """Tells whether ``value`` is a finite int or float (a bool is not a number here)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def validate_report(data: Any, name: str) -> None:
    """Raises :class:`BaselineError` (one line naming ``name`` and the field) unless ``data`` is a
    results.json the gate can read."""
    if not isinstance(data, dict):
        raise BaselineError(f"{name}: not a stratbench results.json (a JSON object), got {type(data).__name__}")
    if "matches" not in data:
        raise BaselineError(f"{name}: not a stratbench results.json (no 'matches')")
    if not isinstance(data["matches"], list):
        raise BaselineError(f"{name}: 'matches' is not a list")
    agents = data.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise BaselineError(f"{name}: 'agents' is not a list of agent labels")
    manifest = data.get("manifest", {})
    if not isinstance(manifest, dict):
        raise BaselineError(f"{name}: 'manifest' is not an object")
    run_ids = manifest.get("run_ids", [])
    if not isinstance(run_ids, list) or not all(isinstance(r, str) for r in run_ids):
        raise BaselineError(f"{name}: 'manifest.run_ids' is not a list of run ids")
    if not isinstance(manifest.get("packages", {}), dict):
        raise BaselineError(f"{name}: 'manifest.packages' is not an object")
    for number, row in enumerate(data["matches"], start=1):
        problem = _row_problem(row)
        if problem:
            raise BaselineError(f"{name}: matches[{number - 1}]: {problem}")


def _row_problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "not an object"
    for key in ("match_id", "game", "agents", "scores"):
        if key not in row:
            return f"no {key!r}"
    if not isinstance(row["match_id"], str) or not isinstance(row["game"], str):
        return "'match_id' and 'game' must be strings"
    if not isinstance(row["agents"], list) or not row["agents"] or not all(isinstance(a, str) for a in row["agents"]):
        return "'agents' is not a list of agent labels"
    if not isinstance(row["scores"], list) or len(row["scores"]) != len(row["agents"]) \
            or not all(finite_number(x) for x in row["scores"]):
        return "'scores' is not a list of finite numbers, one per agent"
    if row.get("seed") is not None and not isinstance(row["seed"], int):
        return "'seed' is not an integer"
    subject = row.get("subject", 0)
    if not isinstance(subject, int) or isinstance(subject, bool) or not 0 <= subject < len(row["agents"]):
        return "'subject' is not a seat index"
    scale = row.get("score_range")
    if scale is not None and not (isinstance(scale, list) and len(scale) == 2 and all(finite_number(x) for x in scale)
                                  and scale[0] < scale[1]):
        return "'score_range' is not [low, high]"
    if row.get("cost_usd") is not None and not finite_number(row["cost_usd"]):
        return "'cost_usd' is not a number"
    return None


# ---------------------------------------------------------------- the per-game decision

def decide(units: Sequence[float], wdl: bool, settings: GateSettings, tests: int = 1, *,
           games: int | None = None) -> Any:
    """Runs the sequential test on ``units`` (in order); returns ``(SprtResult, llr_path, decided_at)``.

    ``units`` are pentanomial pair scores (0, ½, 1, 1½, 2) when ``wdl`` (head to head), else points in
    [0, 1] (``(1 + d) / 2`` of a normalized difference ``d``). ``games`` (baseline mode, win/draw/loss):
    the points are differences of ``games`` games per side each, tested in normalized Elo whatever
    ``settings.elo_model`` says. The test stops at the first unit whose LLR crosses a bound (at
    ``alpha / tests`` and ``beta / tests``); its result there is returned, with the LLR after every unit
    up to it (``decided_at`` None: no bound crossed yet).
    """
    from stratbench.rating.sprt import llr_bounds  # lean: rating.sprt loads numpy and scipy

    alpha, beta = settings.alpha / tests, settings.beta / tests
    lower, upper = llr_bounds(alpha, beta)
    path = _llr_path(units, wdl, settings, games)
    for n, llr in enumerate(path, start=1):
        if llr >= upper or llr <= lower:
            return _sprt_at(units[:n], wdl, settings, alpha, beta, games), path[:n], n
    return _sprt_at(units, wdl, settings, alpha, beta, games), path, None


def difference_grid(games: int) -> list[float]:
    """The points a baseline unit of ``games`` win/draw/loss games per side can take: ``(1 + d) / 2`` in steps of
    ``1 / (4 games)``."""
    steps = 4 * games
    return [k / steps for k in range(steps + 1)]


def _sprt_at(units: Sequence[float], wdl: bool, settings: GateSettings, alpha: float, beta: float,
             games: int | None = None) -> Any:
    from stratbench.rating.sprt import sprt_grid, sprt_pentanomial, sprt_points  # lean: loads numpy and scipy

    if games is not None:
        grid = difference_grid(games)
        counts = [sum(1 for u in units if abs(u - g) < 1e-9) for g in grid]
        return sprt_grid(counts, grid, games, settings.elo0, settings.elo1, alpha=alpha, beta=beta,
                         elo_model="normalized")
    if wdl:
        return sprt_pentanomial(_pentanomial(units)[-1] if units else [0] * 5, settings.elo0, settings.elo1,
                                alpha=alpha, beta=beta, elo_model=settings.elo_model)
    return sprt_points(list(units), 0.5 - settings.score_margin / 2, 0.5, alpha=alpha, beta=beta)


def _pentanomial(units: Sequence[float]) -> Any:
    """Cumulative pentanomial counts (LL, LD, D, WD, WW) after each pair."""
    import numpy as np  # lean: numpy, only once a gate is computed

    steps = np.zeros((len(units), 5))
    steps[np.arange(len(units)), [int(round(2 * u)) for u in units]] = 1
    return np.cumsum(steps, axis=0)


def _llr_path(units: Sequence[float], wdl: bool, settings: GateSettings, games: int | None = None) -> list[float]:
    """The LLR after each unit, equal to the :mod:`~stratbench.rating.sprt` test on that prefix.

    Computed in one batch per outcome grid (the grid of a points test grows with each new value).
    """
    import numpy as np  # lean: numpy, only once a gate is computed

    from stratbench.rating.sprt import (  # lean: rating.sprt loads numpy and scipy
        PAIR_POINTS,
        elo_to_score,
        llr_expected_score,
    )

    if not units:
        return []
    if games is not None or (wdl and settings.elo_model != "logistic"):  # normalized Elo: t-values per unit
        from stratbench.rating.sprt import NELO_PER_T, llr_t_value  # lean: rating.sprt loads numpy and scipy

        grid = np.array(difference_grid(games) if games is not None else PAIR_POINTS)
        steps = np.zeros((len(units), len(grid)))
        values = [u if games is not None else u / 2 for u in units]
        steps[np.arange(len(units)), [int(np.argmin(np.abs(grid - v))) for v in values]] = 1
        scale = math.sqrt(games if games is not None else 2)
        llr = llr_t_value(np.cumsum(steps, axis=0), grid, scale * settings.elo0 / NELO_PER_T,
                          scale * settings.elo1 / NELO_PER_T)
        return [float(x) for x in llr]
    if wdl:
        llr = llr_expected_score(_pentanomial(units), np.array(PAIR_POINTS),
                                 elo_to_score(settings.elo0), elo_to_score(settings.elo1))
        return [float(x) for x in llr]
    s0, s1 = 0.5 - settings.score_margin / 2, 0.5
    values = np.asarray(units, dtype=float)
    path: list[float] = []
    start = 0
    while start < len(values):
        grid = np.unique(np.concatenate([values[: start + 1], [0.0, 1.0]]))
        end = start + 1
        while end < len(values) and values[end] in grid:
            end += 1
        counts = np.cumsum(values[:end, None] == grid[None, :], axis=0)[start:end]
        path += [float(x) for x in llr_expected_score(counts, grid, s0, s1)]
        start = end
    return path


# ---------------------------------------------------------------- pairing

def _seat_of(row: dict[str, Any], agent: str) -> int | None:
    """The seat of ``agent`` in a row: the subject's seat when it sits there, else its first seat (None: absent)."""
    agents = row["agents"]
    subject = row.get("subject", 0)
    if isinstance(subject, int) and 0 <= subject < len(agents) and agents[subject] == agent:
        return subject
    return agents.index(agent) if agent in agents else None


def _unit_key(row: dict[str, Any], agent: str, mapping: dict[str, str] | None) -> tuple[tuple[Any, ...], Any] | None:
    """``(unit, seating)`` of the compared agent's match: a two-seat game's unit is its seed (test, variant, seed,
    renaming and the two agents, the compared one renamed by the map), the seating the agent's seat in it; any
    other match is a unit of its own (seating None). None when the agent does not play it."""
    seat = _seat_of(row, agent)
    if seat is None:
        return None
    if row.get("seed") is None:
        return ("id", row["match_id"]), None
    agents = list(row["agents"])
    agents[seat] = (mapping or {}).get(agents[seat], agents[seat])
    test = str(row["match_id"]).split("[", 1)[0]
    if len(agents) == 2:
        return ("seed", test, row.get("game"), tuple(sorted(agents)), row.get("seed"), row.get("variant"),
                row.get("renaming"), row.get("openings")), seat
    return ("match", test, row.get("game"), tuple(agents), row.get("seed"), row.get("variant"),
            row.get("subject", 0), row.get("renaming"), row.get("openings")), None


def holds_both_seatings(report: dict[str, Any]) -> bool:
    """Whether any seed of a two-seat game in ``report`` was played in both seatings (a run with ``--pairs``)."""
    seen: dict[Any, set] = {}
    for row in report.get("matches", []):
        agents = row.get("agents") or []
        subject = row.get("subject", 0)
        if len(agents) != 2 or row.get("seed") is None or not isinstance(subject, int) or not 0 <= subject < 2:
            continue
        unit, seat = _unit_key(row, agents[subject], None)
        seats = seen.setdefault((unit, agents[subject]), set())
        seats.add(seat)
        if len(seats) == 2:
            return True
    return False


def unit_order(test: str, variant: Any, seed: Any, renaming: Any = None, openings: Any = None) -> str:
    """The place of a unit in the gate's order: a hash of what names its position (test, variant, seed,
    renaming, a book start), the same in every run and for every agent, unrelated to seating or seed blocks."""
    named = [test, variant, seed, renaming] + ([openings] if openings is not None else [])
    text = json.dumps(named, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def unit_place(key: tuple[Any, ...]) -> str:
    """A unit's place in the gate's order (:func:`unit_order`), from the key that names it: ``_unit_key``'s
    ``("seed" | "match" | "id", ...)`` or the until-decided schedule's head-to-head ``("h2h", test, variant, seed,
    renaming, openings)``."""
    if key[0] == "h2h":
        return unit_order(key[1], key[2], key[3], key[4], key[5])
    if key[0] == "id":
        return unit_order(key[1], None, None)
    return unit_order(key[1], key[5], key[4], key[-2], key[-1])


def _scales(*reports: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each game's score range: from the match rows, else the model overview, else the built-in game."""
    found: dict[str, tuple[float, float]] = {}
    for report in reports:
        for row in report.get("matches", []):
            scale = row.get("score_range")
            if scale is not None:
                found.setdefault(row["game"], (float(scale[0]), float(scale[1])))
        overview = report.get("model_overview") or {}
        for game in overview.get("games") or []:
            scale = game.get("score_range") if isinstance(game, dict) else None
            if isinstance(scale, list) and len(scale) == 2 and all(finite_number(x) for x in scale) and scale[0] < scale[1]:
                found.setdefault(game["game"], (float(scale[0]), float(scale[1])))
    missing = {row["game"]: row.get("variant") for r in reports for row in r.get("matches", [])
               if row["game"] not in found}
    if missing:
        found.update({g: scale[0] for g, scale in builtin_scales(missing).items()})
    return found


def _side_score(row: dict[str, Any], agent: str) -> float | None:
    """The agent's score in a row: its own seat's (the subject's when it sits there), not an average of every seat
    that carries its label."""
    seat = _seat_of(row, agent)
    return None if seat is None else float(row["scores"][seat])


def _clipped(d: float) -> float:
    """A normalized difference kept in [-1, 1] (a score outside its game's declared range)."""
    return max(-1.0, min(1.0, d))


def _is_wdl(scale: tuple[float, float], scores: Sequence[float]) -> bool:
    return scale == (0.0, 1.0) and all(s in (0.0, 0.5, 1.0) for s in scores)


@dataclass
class _Pairs:
    diffs: list[float]
    """Per unit, the normalized difference new − old (−1..1) per game, in the gate's order."""
    units: list[float]
    wdl: bool
    incomplete: int
    cost: float
    """Cost of the current run's matches in the units (USD)."""
    games: int | None = None
    """Baseline mode, win/draw/loss: games per side in a unit (2: both seatings of a seed; 1: one match)."""
    why_incomplete: list[str] = field(default_factory=list)
    charged: int = 0
    """Matches of this run that errored by the model's or its provider's fault, counted as losses."""
    voided: list[str] = field(default_factory=list)
    """Units left out because a match of theirs errored by the harness's fault (their match ids)."""
    repeats: int = 0
    """Units left out because their games are those of an earlier unit, move for move (a repeat is no new
    evidence)."""


def _fingerprint(rows: Sequence[dict[str, Any]]) -> tuple[Any, ...] | None:
    """What a unit's games were, move for move (their ``game_digest`` in order), or None when a game has none (an
    errored match, an older record): such a unit is never taken for a repeat."""
    digests = tuple(row.get("game_digest") for row in rows)
    return None if not all(digests) else digests


def _is_subject(row: dict[str, Any], agent: str) -> bool:
    """Whether ``agent`` is the agent under test of a row (it sits in the subject's seat)."""
    subject = row.get("subject", 0)
    agents = row.get("agents") or []
    return isinstance(subject, int) and 0 <= subject < len(agents) and agents[subject] == agent


def _errored_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's unscored rows that count for the gate: errored matches with the agents they seated."""
    rows = []
    for row in report.get("unscored") or []:
        if isinstance(row, dict) and row.get("status") == "errored" and isinstance(row.get("agents"), list):
            rows.append(row)
    return rows


def _charged_row(row: dict[str, Any], agent: str, scale: tuple[float, float]) -> dict[str, Any]:
    """An errored match charged to ``agent`` as a loss: its seat at the bottom of the range, the others at the top."""
    seat = _seat_of(row, agent)
    scores = [scale[1]] * len(row["agents"])
    scores[seat] = scale[0]
    return {**row, "scores": scores, "charged": True}


def _baseline_pairs(current: dict[str, Any], baseline: dict[str, Any], agent: str, base_agent: str, game: str,
                    mapping: dict[str, str] | None, scale: tuple[float, float]) -> _Pairs:
    def rows(report: dict[str, Any], who: str, keyed: dict[str, str] | None) -> tuple[dict[Any, dict[str, Any]], set]:
        found: dict[Any, dict[str, Any]] = {}
        voided: set = set()
        for row in report.get("matches", []):
            if row["game"] == game and _is_subject(row, who):
                unit = _unit_key(row, who, keyed)
                if unit is not None:
                    found[unit] = row
        for row in _errored_rows(report):
            if row.get("game") != game or not _is_subject(row, who):
                continue
            unit = _unit_key(row, who, keyed)
            if unit is None or unit in found:
                continue
            if row.get("fault") in ("model", "provider"):
                found[unit] = _charged_row(row, who, scale)  # the agent's own (or its provider's) fault: a loss
            else:
                voided.add(unit[0])  # the harness's fault: the unit says nothing of the agent
                void_ids.append(row["match_id"])
        return found, voided

    void_ids: list[str] = []
    now, void_now = rows(current, agent, mapping)
    before, void_before = rows(baseline, base_agent, None)
    voided = void_now | void_before
    seatings: dict[Any, set] = {}
    for unit, seating in now:
        seatings.setdefault(unit, set()).add(seating)
    two_seat = [unit for unit in seatings if unit[0] == "seed"]
    by_unit: dict[Any, list[Any]] = {}
    why: list[str] = []
    for unit, seats in seatings.items():
        shared = sorted((s for s in seats if (unit, s) in before), key=lambda s: -1 if s is None else s)
        if unit in voided:
            continue
        if shared:
            by_unit[unit] = shared
    # a two-seat game's unit holds both seatings when the two runs have them; units that hold one seating are
    # used only when no unit of the game holds both (a baseline recorded without --pairs), never mixed with them
    games = None
    if two_seat:
        full = {u: s for u, s in by_unit.items() if len(s) == 2}
        if full:
            half = [u for u in by_unit if u not in full]
            if half:
                why.append(f"{len(half)} seed(s) with one seating in one of the runs")
            by_unit, games = full, 2
        else:
            games = 1
    order = sorted(by_unit, key=lambda u: (unit_place(u), repr(u)))
    span = scale[1] - scale[0]
    diffs, new_scores, old_scores, cost = [], [], [], 0.0
    charged = repeats = 0
    seen: set = set()
    for unit in order:
        played = _fingerprint([side[(unit, seat)] for seat in by_unit[unit] for side in (now, before)])
        if played is not None and played in seen:
            repeats += 1
            continue
        seen.add(played)
        d = []
        for seat in by_unit[unit]:
            n_row, o_row = now[(unit, seat)], before[(unit, seat)]
            n, o = _side_score(n_row, agent), _side_score(o_row, base_agent)
            new_scores.append(n)
            old_scores.append(o)
            d.append(_clipped((n - o) / span))
            cost += float(n_row.get("cost_usd") or 0.0)
            charged += bool(n_row.get("charged"))
        diffs.append(sum(d) / len(d))
    wdl = _is_wdl(scale, [*new_scores, *old_scores])
    units = [(1 + d) / 2 for d in diffs]
    if not wdl:
        games = None
    elif games is None:
        games = 1
    missing = [u for u in seatings if u not in by_unit and u not in voided]
    before_units = {u for u, _ in before}
    no_twin = sum(1 for u in missing if u not in before_units)
    if no_twin:
        why.append(f"{no_twin} without a twin in the baseline")
    other_seat = sum(1 for u in missing if u in before_units and not any((u, s) in before for s in seatings[u]))
    if other_seat:
        why.append(f"{other_seat} in a seating the baseline did not play: record the baseline with --pairs, "
                   "or play the same --matches")
    incomplete = len(missing)
    return _Pairs(diffs, units, wdl, incomplete, cost, games, why, charged, sorted(set(void_ids)), repeats)


def _head_to_head_pairs(current: dict[str, Any], new: str, old: str, game: str,
                        scale: tuple[float, float]) -> _Pairs:
    def seed_of(row: dict[str, Any]) -> tuple[Any, ...]:
        return str(row["match_id"]).split("[", 1)[0], row.get("variant"), row.get("renaming"), row.get("seed")

    # an errored match voids its seed's pair: the record does not say which of the two models was at fault
    errored = [row for row in _errored_rows(current)
               if row.get("game") == game and sorted(row["agents"]) == sorted([new, old]) and new != old]
    voided = {seed_of(row) for row in errored}
    groups: dict[Any, dict[int, list[dict[str, Any]]]] = {}
    for row in current.get("matches", []):
        if row["game"] != game or sorted(row["agents"]) != sorted([new, old]) or new == old:
            continue
        if seed_of(row) in voided:
            continue
        test = str(row["match_id"]).split("[", 1)[0]
        seats = groups.setdefault((test, row.get("variant"), row.get("renaming")), {0: [], 1: []})
        seats[row["agents"].index(new)].append(row)
    span = scale[1] - scale[0]
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    incomplete = 0
    for key in sorted(groups, key=repr):
        first, second = (sorted(groups[key][s], key=lambda r: (r.get("seed") or 0, r["match_id"])) for s in (0, 1))
        by_seed = [{r.get("seed"): r for r in seat} for seat in (first, second)]
        shared = sorted(set(by_seed[0]) & set(by_seed[1]), key=lambda seed: seed or 0)
        if shared:  # each seed in both seatings: a pair is one seed (one position), never two
            pairs += [(by_seed[0][seed], by_seed[1][seed]) for seed in shared]
            incomplete += len(first) + len(second) - 2 * len(shared)
        else:  # a run without --pairs seated other seeds each way: the i-th match of each seating
            pairs += list(zip(first, second))
            incomplete += abs(len(first) - len(second))
    pairs.sort(key=lambda p: (unit_order(str(p[0]["match_id"]).split("[", 1)[0], p[0].get("variant"),
                                         min(p[0].get("seed") or 0, p[1].get("seed") or 0), p[0].get("renaming"),
                                         p[0].get("openings")),
                              p[0]["match_id"]))  # the gate's order: unrelated to seeds and seatings
    seen: set = set()
    kept = []
    for pair in pairs:
        played = _fingerprint(pair)
        if played is None or played not in seen:
            kept.append(pair)
        seen.add(played)
    repeats, pairs = len(pairs) - len(kept), kept
    scores = [(_side_score(r, new), _side_score(r, old)) for pair in pairs for r in pair]
    wdl = _is_wdl(scale, [s for both in scores for s in both])
    diffs, units = [], []
    for a, b in pairs:
        d = [_clipped((_side_score(r, new) - _side_score(r, old)) / span) for r in (a, b)]
        diffs.append(sum(d) / 2)
        units.append(_side_score(a, new) + _side_score(b, new) if wdl else (1 + sum(d) / 2) / 2)
    cost = sum(float(r.get("cost_usd") or 0.0) for pair in pairs for r in pair)
    return _Pairs(diffs, units, wdl, incomplete, cost, voided=sorted(row["match_id"] for row in errored),
                  repeats=repeats)


def _games(report: dict[str, Any], agent: str) -> set[str]:
    return {r["game"] for r in report.get("matches", []) if agent in r["agents"]}


def _subjects(report: dict[str, Any]) -> set[str]:
    """The agents under test: those that sit in a match's subject seat."""
    return {r["agents"][r.get("subject", 0)] for r in report.get("matches", [])}


def _test(agent: str, base_agent: str, game: str, pairing: str, pairs: _Pairs, settings: GateSettings,
          k: int) -> GameTest:
    from stratbench.rating.sprt import expected_units_left, llr_bounds  # lean: rating.sprt loads numpy and scipy

    model = "difference" if pairs.games is not None else "pentanomial" if pairs.wdl else "points"
    extra = {"games": pairs.games, "why_incomplete": list(pairs.why_incomplete), "charged": pairs.charged,
             "voided": list(pairs.voided), "repeats": pairs.repeats}
    if not pairs.units:
        lower, upper = llr_bounds(settings.alpha / k, settings.beta / k)
        return GameTest(agent, base_agent, game, pairing, model, 0,
                        pairs.incomplete, INCONCLUSIVE, 0.0, lower, upper, None, (None, None),
                        _unit(pairs, settings), [], None, None, **extra)
    result, path, decided_at = decide(pairs.units, pairs.wdl and pairs.games is None, settings, k, games=pairs.games)
    decision = {"H1": PASS, "H0": FAIL}.get(result.decision, INCONCLUSIVE)
    used = pairs.diffs[:result.units]
    all_equal = len(set(pairs.units[:result.units])) == 1
    if model == "points":  # mean point (1 + d) / 2 -> mean difference d (the observed mean, not the regularised one)
        estimate = sum(used) / len(used)
        interval = (None, None) if all_equal else tuple(_finite(2 * x - 1) for x in result.interval)
    else:
        estimate = _finite(result.estimate)
        interval = (None, None) if all_equal else tuple(_finite(x) for x in result.interval)
    spread = None
    if len(pairs.diffs) >= 2:
        mean = sum(pairs.diffs) / len(pairs.diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in pairs.diffs) / (len(pairs.diffs) - 1))
    test = GameTest(agent, base_agent, game, pairing, model, len(pairs.units),
                    pairs.incomplete, decision, float(result.llr), float(result.lower), float(result.upper),
                    estimate, interval, _unit(pairs, settings), path, decided_at, spread, all_equal=all_equal, **extra)
    if pairing == "baseline":
        test.score_difference = sum(used) / len(used)
        if len(used) >= 2 and not all_equal:
            mean = test.score_difference
            half = 1.959963984540054 * math.sqrt(sum((d - mean) ** 2 for d in used) / (len(used) - 1) / len(used))
            test.score_interval = (max(-1.0, mean - half), min(1.0, mean + half))
    if decision == INCONCLUSIVE:
        left = expected_units_left(result)
        if left is not None and math.isfinite(left):
            test.more_pairs = max(1, math.ceil(left))
            per_pair = pairs.cost / len(pairs.units)
            test.more_cost = per_pair * test.more_pairs if per_pair > 0 else None
    return test


def _unit(pairs: _Pairs, settings: GateSettings) -> str:
    if pairs.games is not None:
        return "normalized Elo"
    return f"{settings.elo_model} Elo" if pairs.wdl else "score"


def _finite(value: Any) -> float | None:
    return float(value) if finite_number(value) else None


# ---------------------------------------------------------------- the gate

def check(current: dict[str, Any], baseline: dict[str, Any], settings: GateSettings = GateSettings(),
          tests: int | None = None) -> GateResult:
    """Tests every agent under test that both runs share (or each mapped pair) per game.

    ``tests`` fixes the number of tests the error rates are split over (when more are planned than
    the results hold yet, as under ``--gate-until-decided``).

    Raises:
        NothingCompared: No agent or no game in both runs.
    """
    warnings: list[str] = []
    base_agents = set(baseline.get("agents") or []) | {a for r in baseline.get("matches", []) for a in r["agents"]}
    subjects = _subjects(current)
    if settings.agent_map:
        pairs = {new: old for new, old in settings.agent_map.items() if new in subjects and old in base_agents}
        for new, old in sorted(settings.agent_map.items()):
            if new not in subjects:
                warnings.append(f"this run has no agent under test {new!r}; not compared")
            elif old not in base_agents:
                warnings.append(f"baseline has no agent {old!r}; not compared")
    else:
        pairs = {a: a for a in sorted(subjects & base_agents)}
    if not pairs:
        raise NothingCompared(
            "no agent under test appears in both runs"
            + ("" if settings.agent_map else " (compare a renamed model with an agent map NEW=OLD)"))
    scales = _scales(current, baseline)
    plan = []
    for agent, base_agent in sorted(pairs.items()):
        shared = _games(current, agent) & _games(baseline, base_agent)
        for game in sorted(_games(current, agent) - shared):
            warnings.append(f"{agent}: {game} is not in the baseline; not compared")
        for game in sorted(shared):
            if game not in scales:
                warnings.append(f"{game}: no known score range; not compared")
                continue
            plan.append((agent, base_agent, game))
    if not plan:
        raise NothingCompared("the agents compared share no game with the baseline")
    k = max(tests or 0, len(plan))
    found = []
    for agent, base_agent, game in plan:
        mapping = ({**settings.agent_map, agent: base_agent}
                   if settings.agent_map or agent != base_agent else None)
        paired = _baseline_pairs(current, baseline, agent, base_agent, game, mapping, scales[game])
        found.append(_test(agent, base_agent, game, "baseline", paired, settings, k))
    if not any(t.pairs for t in found):
        raise NothingCompared("the two runs share no match of the agents compared (other seeds, tests or variants?)")
    result = GateResult(found, warnings, settings, k)
    for agent, base_agent in sorted(pairs.items()):
        now_seeds, base_seeds = _played(current, agent), _played(baseline, base_agent)
        if now_seeds != base_seeds:  # ratings over other matches say nothing of a drop
            result.warnings.append(
                f"{agent}: ratings not compared: the two runs played other matches ({len(now_seeds & base_seeds)} "
                f"shared, {len(now_seeds - base_seeds)} only here, {len(base_seeds - now_seeds)} only in the baseline)")
            continue
        note = rating_drop(current, baseline, agent, base_agent, settings.tolerance)
        if note:
            result.warnings.append(note)
    _version_notes(current, baseline, result.warnings)
    return result


def head_to_head(current: dict[str, Any], settings: GateSettings, tests: int | None = None) -> GateResult:
    """Tests each mapped NEW against OLD on the matches they played against each other, seats swapped.

    Raises:
        NothingCompared: No head-to-head match of a mapped pair in this run.
    """
    if not settings.agent_map:
        raise NothingCompared("a head-to-head gate needs an agent map NEW=OLD")
    scales = _scales(current)
    plan = []
    warnings: list[str] = []
    for new, old in sorted(settings.agent_map.items()):
        games = {r["game"] for r in current.get("matches", []) if sorted(r["agents"]) == sorted([new, old])}
        if not games:
            warnings.append(f"{new} and {old} played no match against each other; not compared")
        plan += [(new, old, g) for g in sorted(games) if g in scales]
    if not plan:
        raise NothingCompared("no mapped pair of agents played each other in this run")
    k = max(tests or 0, len(plan))
    found = [_test(new, old, game, "head-to-head", _head_to_head_pairs(current, new, old, game, scales[game]),
                   settings, k) for new, old, game in plan]
    if not any(t.pairs for t in found):
        raise NothingCompared("no head-to-head match has its partner with the seats swapped")
    return GateResult(found, warnings, settings, k)


def expected_units(settings: GateSettings, tests: int = 1, games: int = 2, wdl: bool = True) -> tuple[float, float]:
    """Average units a test needs to decide, ``(under H0: the regression, under H1: no change)``, by Wald's
    approximation with the error rates split over ``tests``.

    A win/draw/loss unit of ``games`` games per side is taken at the hypotheses' normalized distance
    (``sqrt(games) (elo1 - elo0) / (800 / ln 10)`` in t-values; logistic Elo read at an even score); any other
    game's at the largest spread a unit in [0, 1] can have, so its figures are upper bounds.
    """
    from stratbench.rating.sprt import NELO_PER_T, elo_to_score, llr_bounds  # lean: loads numpy and scipy

    alpha, beta = settings.alpha / tests, settings.beta / tests
    lower, upper = llr_bounds(alpha, beta)
    if not wdl:
        distance = settings.score_margin  # (margin / 2) / 0.5
    elif settings.elo_model == "logistic":
        distance = (elo_to_score(settings.elo1) - elo_to_score(settings.elo0)) * 2 * math.sqrt(games)
    else:
        distance = math.sqrt(games) * (settings.elo1 - settings.elo0) / NELO_PER_T
    drift = distance ** 2 / 2
    under_h1 = ((1 - beta) * upper + beta * lower) / drift
    under_h0 = ((1 - alpha) * lower + alpha * upper) / -drift
    return under_h0, under_h1


def plan_lines(queues: dict[Any, list[list[Any]]], settings: GateSettings, budget: int | None, spent: int,
               unpaired: int, cost_per_match: float | None = None) -> list[str]:
    """What a gate will do, said before its first match: the tests, the units that can pair, the units a decision
    takes on average and what they cost at the recorded cost per match, the budget, the matches never played."""
    units = sum(len(queue) for queue in queues.values())
    matches = sum(len(unit) for queue in queues.values() for unit in queue)
    tests = max(1, len(queues))
    games = max((len(unit) for queue in queues.values() for unit in queue), default=1)
    under_h0, under_h1 = expected_units(settings, tests, games)
    lines = [f"stratbench gate plan: {len(queues)} test(s); {units} unit(s) can pair ({matches} match(es)); "
             f"a win/draw/loss test decides after about {math.ceil(under_h1)} unit(s) if nothing changed and "
             f"{math.ceil(under_h0)} at the regression it is built to catch (H0 {_h0(settings)}, "
             f"Bonferroni over {tests})"]
    if cost_per_match is not None:
        per_unit = cost_per_match * games
        lines.append(f"stratbench gate plan: about ${per_unit * under_h1 * tests:.2f} to a decision if nothing "
                     f"changed, ${per_unit * under_h0 * tests:.2f} at the regression (${cost_per_match:.4f} a match, "
                     f"as recorded); all {matches} match(es): about ${cost_per_match * matches:.2f}")
    else:
        lines.append("stratbench gate plan: cost not estimated (no recorded match of these tests carries a price; "
                     "a model without a listed price needs --price MODEL IN OUT)")
    fewest = min((len(queue) for queue in queues.values()), default=0)
    if queues and fewest < min(under_h0, under_h1):
        lines.append(f"stratbench gate plan: a test has only {fewest} unit(s) to play, fewer than a decision takes "
                     "on average: expect inconclusive unless the change is large (more seeds: --matches N, in "
                     "both runs)")
    if budget is not None:
        lines.append(f"stratbench gate plan: budget {budget} match(es), {spent} spent by the runs resumed; "
                     "a unit is never begun that the budget cannot finish")
    if unpaired:
        lines.append(f"stratbench gate plan: {unpaired} match(es) cannot complete a unit and are not played")
    return lines


def _played(report: dict[str, Any], agent: str) -> set[tuple[Any, ...]]:
    """The matches ``agent`` played as the subject, named by test, game, variant, seed, seat and renaming."""
    return {(str(r["match_id"]).split("[", 1)[0], r["game"], r.get("variant"), r.get("seed"), r.get("subject", 0),
             r.get("renaming")) for r in report.get("matches", []) if _is_subject(r, agent)}


def _version_notes(current: dict[str, Any], baseline: dict[str, Any], warnings: list[str]) -> None:
    now_versions = (current.get("manifest") or {}).get("packages", {})
    base_versions = (baseline.get("manifest") or {}).get("packages", {})
    for package in ("litellm", "pytest-stratbench"):
        if package in now_versions and package in base_versions and now_versions[package] != base_versions[package]:
            warnings.append(f"{package} {base_versions[package]} -> {now_versions[package]}")
    now_models = set((current.get("manifest") or {}).get("models", []))
    base_models = set((baseline.get("manifest") or {}).get("models", []))
    if now_models != base_models and (now_models or base_models):
        warnings.append(f"models {', '.join(sorted(base_models)) or '(none)'} -> "
                        f"{', '.join(sorted(now_models)) or '(none)'}")


def _interval(report: dict[str, Any], agent: str) -> tuple[float, float, float] | None:
    ratings = report.get("ratings") or {}
    agents = ratings.get("agents") or []
    if agent not in agents:
        return None
    k = agents.index(agent)
    low, high, mean = ratings["low"][k], ratings["high"][k], ratings["mean"][k]
    if low is None or high is None or mean is None:
        return None
    return float(low), float(high), float(mean)


def rating_drop(current: dict[str, Any], baseline: dict[str, Any], agent: str, base_agent: str,
                tolerance: float) -> str | None:
    """Returns a note when ``agent``'s rating interval lies below ``base_agent``'s baseline interval."""
    try:
        now, before = _interval(current, agent), _interval(baseline, base_agent)
    except (TypeError, KeyError, IndexError, ValueError):
        return None
    if now is None or before is None:
        return None
    if now[1] < before[0] - tolerance:
        return (
            f"{agent}: rating {now[2]:+.2f} [{now[0]:+.2f}, {now[1]:+.2f}] lies below the baseline "
            f"{base_agent} {before[2]:+.2f} [{before[0]:+.2f}, {before[1]:+.2f}] by more than {tolerance:.2f}"
        )
    return None
