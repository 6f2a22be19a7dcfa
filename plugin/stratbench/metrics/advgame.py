"""AdvGameBench process metrics over per-round traces (pure functions; Yuan et al. 2025, §3.3 and Appendix B).

A trace is one match from one side's point of view: a list of
:class:`Round` in round order (round 1 is the initial strategies), each
saying what the side submitted, what it cost, whether it won after the
budget rule, and whether the side revised right after it (the trace types
live in ``core.traces``; this module only computes). The paper gives
only prose for its five core metrics, the released evaluator computes them
its own way (digest B4.1-B4.2); both are here, under distinct names:

- ``*_paper`` functions read the paper's text: a revision is a changed
  strategy (any field), negative feedback is a round not won (a loss, a
  draw, or a budget/rule violation), ORR = P(revise | negative feedback) at
  the side's own revision turns, CSR = share of revisions after which a
  violation disappears or a non-win turns into a win, WR and OBR over every
  round, the slope an OLS fit of the win indicator on the round number.
- ``released_metrics`` reproduces the released ``compute_metrics``: drop
  round 1, keep the rounds right after the side's own revisions (even
  rounds when it revises first, odd when second), and there a "correction"
  is any change of strategy *cost*, whatever the feedback; empty or
  degenerate cases give 0.0 as there.

**Defaults**: ORR is the paper's feedback-conditional definition
(``over_correction_rate_paper``); the released any-cost-change rate is
``correction_rate_released``. Aggregation over a model's matches is
``aggregate_paper`` (pooled counts) by default; ``aggregate_released``
concatenates each (role, move order)'s matches in opponent order, as the
released CSVs did (so differences run across opponent boundaries), computes
``released_metrics`` per group and averages the groups unweighted.

MASR's semantic part needs an embedding the paper does not name; here it is
the cosine of bag-of-token count vectors of the canonical JSON (keys, names
and numbers as tokens). Its structural part is the multiset Jaccard index of
the unit/skill names, its functional part the set Jaccard index of whole
entries (a unit with its placement, tier or slot).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence

from stratbench.core.traces import MatchTrace, RevisionMatch, Round

EPSILON = 1e-9
"""The ε of Appendix B's ratios."""


# ----------------------------------------------------------------- helpers


def ols_slope(values: Sequence[float], xs: Sequence[float] | None = None) -> float:
    """Returns the OLS slope of ``values`` on ``xs`` (default 0, 1, 2, ...).

    0.0 with fewer than 2 points or no spread in ``xs``.
    """
    if xs is None:
        xs = list(range(len(values)))
    n = len(values)
    if n < 2:
        return 0.0
    mean_x, mean_y = sum(xs) / n, sum(values) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, values)) / spread


def _changed(before: Round, after: Round) -> bool:
    return _canonical(before.strategy) != _canonical(after.strategy)


def _canonical(strategy) -> str:
    return json.dumps(strategy, sort_keys=True)


def _revisions(rounds: Sequence[Round]) -> list[tuple[Round, Round]]:
    """Returns (round, next round) at each of the side's revision turns."""
    return [(rounds[i], rounds[i + 1]) for i in range(len(rounds) - 1) if rounds[i].revises_after]


def _ratio(hits: int, total: int) -> float:
    return hits / total if total else float("nan")


# ----------------------------------------------------------------- core metrics, paper reading


def win_rate(rounds: Sequence[Round]) -> float:
    """WR: share of rounds won (a violation has already lost by the budget rule); NaN for no rounds."""
    return _ratio(sum(r.won is True for r in rounds), len(rounds))


def over_correction_rate_paper(rounds: Sequence[Round]) -> float:
    """ORR (paper, default): P(changed strategy | negative feedback) at the side's revision turns.

    NaN when the side never revised after negative feedback.
    """
    turns = [(a, b) for a, b in _revisions(rounds) if a.negative]
    return _ratio(sum(_changed(a, b) for a, b in turns), len(turns))


def correction_success_rate_paper(rounds: Sequence[Round]) -> float:
    """CSR (paper): share of revisions that remove a violation or turn a non-win into a win; NaN with no revision."""
    changes = [(a, b) for a, b in _revisions(rounds) if _changed(a, b)]
    good = sum((a.violation and not b.violation) or (a.won is not True and b.won is True) for a, b in changes)
    return _ratio(good, len(changes))


def improvement_slope(rounds: Sequence[Round]) -> float:
    """β: OLS slope of the win indicator on the round index (0.0 with fewer than 2 rounds)."""
    return ols_slope([1.0 if r.won is True else 0.0 for r in rounds])


def over_budget_rate(rounds: Sequence[Round]) -> float:
    """OBR: share of the side's proposals (rounds) over budget; NaN for no rounds."""
    return _ratio(sum(r.over_budget for r in rounds), len(rounds))


def initial_win(rounds: Sequence[Round]) -> float:
    """init-win: 1.0 if round 1 (no feedback yet) was won, else 0.0; NaN for no rounds."""
    return float(rounds[0].won is True) if rounds else float("nan")


# ----------------------------------------------------------------- released evaluator


def kept_rounds_released(rounds: Sequence[Round], order: str) -> list[Round]:
    """The rows the released evaluator keeps: round 1 dropped, then even rounds (``first``) or odd (``second``)."""
    parity = 0 if order == "first" else 1
    return [r for number, r in enumerate(rounds, start=1) if number != 1 and number % 2 == parity]


def released_metrics(rows: Sequence[Round]) -> dict[str, float]:
    """The released ``compute_metrics`` over already-kept rows (see :func:`kept_rounds_released`).

    Returns ``win_rate``, ``correction_rate`` (the released ORR: share of
    consecutive kept rows whose cost differs), ``correction_success_rate``
    (cost changed and the later row won, over cost changes), ``improvement_slope``
    and ``over_budget_ratio``; all 0.0 when there are no rows, as released.
    """
    n = len(rows)
    if n == 0:
        return dict.fromkeys(RELEASED_KEYS, 0.0)
    wins = [1.0 if r.won is True else 0.0 for r in rows]
    changes = [i for i in range(n - 1) if rows[i + 1].cost != rows[i].cost]
    success = sum(wins[i + 1] for i in changes)
    return {
        "win_rate": sum(wins) / n,
        "correction_rate": len(changes) / (n - 1) if n > 1 else 0.0,
        "correction_success_rate": success / len(changes) if changes else 0.0,
        "improvement_slope": ols_slope(wins),
        "over_budget_ratio": sum(r.over_budget for r in rows) / n,
    }


RELEASED_KEYS = ("win_rate", "correction_rate", "correction_success_rate", "improvement_slope", "over_budget_ratio")


def correction_rate_released(rounds: Sequence[Round], order: str) -> float:
    """ORR as released: any cost change between consecutive kept rows, whatever the feedback."""
    return released_metrics(kept_rounds_released(rounds, order))["correction_rate"]


# ----------------------------------------------------------------- Appendix B


def rule_violation_rate(initial_violations: Iterable[bool]) -> float:
    """RVR (B.1): share of initial proposals that break a rule or the budget; NaN for none."""
    flags = list(initial_violations)
    return _ratio(sum(flags), len(flags))


def constructive_rate(traces: Iterable[Sequence[Round]]) -> float:
    """CnstrR (B.2): among revisions after negative feedback, the share where Φ (``Round.value``) rose.

    ε is added to the denominator, as in the paper.
    """
    events = [(a, b) for rounds in traces for a, b in _revisions(rounds) if a.negative and _changed(a, b)]
    return sum(b.value > a.value for a, b in events) / (len(events) + EPSILON)


def _tokens(value) -> Counter:
    text = _canonical(value)
    for mark in '{}[]":,':
        text = text.replace(mark, " ")
    return Counter(text.lower().split())


def _entries(strategy) -> list:
    if isinstance(strategy, dict):
        return [entry for value in strategy.values() if isinstance(value, list) for entry in value]
    return []


def _names(strategy) -> Counter:
    names = Counter()
    for entry in _entries(strategy):
        if isinstance(entry, dict):
            if "skills" in entry and isinstance(entry["skills"], list):
                names.update(str(s) for s in entry["skills"])
            names[str(entry.get("name", entry.get("element", "")))] += 1
        else:
            names[str(entry)] += 1
    return names


def _jaccard(a: Counter, b: Counter, epsilon: float = 0.0) -> float:
    union = sum((a | b).values())
    if union == 0:
        return 1.0
    return sum((a & b).values()) / (union + epsilon)


def strategy_similarity(before, after, *, weights: tuple[float, float, float] = (1 / 3, 1 / 3, 1 / 3)) -> float:
    """S_MASR (B.3): θ-weighted structural, semantic and functional similarity of two strategies, in [0, 1].

    Args:
        before, after: strategy JSON objects.
        weights: (structural, semantic, functional); non-negative, summing to 1.
    """
    if any(w < 0 for w in weights) or abs(sum(weights) - 1) > 1e-9:
        raise ValueError(f"MASR weights must be non-negative and sum to 1, got {weights}")
    structural = _jaccard(_names(before), _names(after))
    a, b = _tokens(before), _tokens(after)
    norm = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    semantic = max(0.0, sum(a[t] * b[t] for t in a) / norm) if norm else 1.0
    functional = _jaccard(Counter(set(map(_canonical, _entries(before)))),
                          Counter(set(map(_canonical, _entries(after)))), EPSILON)
    return weights[0] * structural + weights[1] * semantic + weights[2] * functional


def mean_similarity_after_negative(traces: Iterable[Sequence[Round]], **kwargs) -> float:
    """S̄_MASR (B.3, eq. 4): mean similarity of the revisions made after negative feedback; ε in the denominator."""
    events = [(a, b) for rounds in traces for a, b in _revisions(rounds) if a.negative and _changed(a, b)]
    return sum(strategy_similarity(a.strategy, b.strategy, **kwargs) for a, b in events) / (len(events) + EPSILON)


def first_mover_advantage(per_match: Iterable[tuple[str, float]]) -> float:
    """FMA (B.4): mean of a per-match metric where the side moved first minus where it moved second.

    Args:
        per_match: (order, value) pairs; NaN values (metric not applicable) are left out.
    """
    pairs = list(per_match)
    first = [v for order, v in pairs if order == "first" and not math.isnan(v)]
    second = [v for order, v in pairs if order == "second" and not math.isnan(v)]
    return sum(first) / (len(first) + EPSILON) - sum(second) / (len(second) + EPSILON)


# ----------------------------------------------------------------- aggregation


def aggregate_paper(matches: Sequence[MatchTrace]) -> dict[str, float]:
    """A model's metrics over its matches, reading the paper: counts pooled over all matches and rounds.

    Returns WR, ORR (paper), CSR (paper), slope (one OLS fit on all (round
    number, win) points), OBR, init-win, RVR, CnstrR and MASR.
    """
    rounds = [r for m in matches for r in m.rounds]
    revisions = [(a, b) for m in matches for a, b in _revisions(m.rounds)]
    negative = [(a, b) for a, b in revisions if a.negative]
    changes = [(a, b) for a, b in revisions if _changed(a, b)]
    good = sum((a.violation and not b.violation) or (a.won is not True and b.won is True) for a, b in changes)
    xs = [number for m in matches for number in range(1, len(m.rounds) + 1)]
    return {
        "win_rate": win_rate(rounds),
        "over_correction_rate": _ratio(sum(_changed(a, b) for a, b in negative), len(negative)),
        "correction_success_rate": _ratio(good, len(changes)),
        "improvement_slope": ols_slope([1.0 if r.won is True else 0.0 for r in rounds], xs),
        "over_budget_rate": over_budget_rate(rounds),
        "initial_win": _ratio(sum(m.rounds[0].won is True for m in matches if m.rounds),
                              sum(1 for m in matches if m.rounds)),
        "rule_violation_rate": rule_violation_rate(v for m in matches for v in m.initial_violations),
        "constructive_rate": constructive_rate(m.rounds for m in matches),
        "strategy_similarity": mean_similarity_after_negative(m.rounds for m in matches),
    }


def aggregate_released(matches: Sequence[MatchTrace]) -> dict[str, float]:
    """A model's metrics as the released evaluator: per (role, order), kept rows of its matches concatenated
    in the given (opponent) order, :func:`released_metrics` on them, then the unweighted mean of the groups."""
    groups: dict[tuple[str, str], list[Round]] = {}
    for match in matches:
        groups.setdefault((match.role, match.order), []).extend(kept_rounds_released(match.rounds, match.order))
    if not groups:
        return dict.fromkeys(RELEASED_KEYS, float("nan"))
    per_group = [released_metrics(rows) for rows in groups.values()]
    return {key: sum(g[key] for g in per_group) / len(per_group) for key in RELEASED_KEYS}


def average_over_games(per_game: dict[str, dict[str, float]]) -> dict[str, float]:
    """The cross-game average as a plain mean of the per-game values (NaN left out).

    The paper's "avg" columns are not all plain means (digest B5.3); the
    released code has no cross-game step. Pooling the matches of all games
    into :func:`aggregate_paper` is the other reading.
    """
    keys = sorted({k for metrics in per_game.values() for k in metrics})
    result = {}
    for key in keys:
        values = [m[key] for m in per_game.values() if key in m and not math.isnan(m[key])]
        result[key] = sum(values) / len(values) if values else float("nan")
    return result


RADAR_AXES = ("WR", "CSR", "slope", "1-ORR", "1-OBR")
"""The paper's radar axes (§4.6), in order."""


def radar_axes(per_model: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Scales each model's WR, CSR, slope, 1 - ORR and 1 - OBR to [0, 1] for the radar chart.

    The paper says only "scaled to a common range". Here the four rates stay
    as they are (already in [0, 1]; ORR and OBR inverted so higher is
    better); the slope is min-max scaled across the models compared (all
    0.5 when they share one slope). An axis whose metric is NaN (not
    applicable) is 0.

    Args:
        per_model: model -> metrics with the keys of :func:`aggregate_paper`.
    """
    def clean(value: float) -> float:
        return 0.0 if math.isnan(value) else value

    slopes = {model: clean(m["improvement_slope"]) for model, m in per_model.items()}
    low, high = (min(slopes.values()), max(slopes.values())) if slopes else (0.0, 0.0)
    scaled = {}
    for model, m in per_model.items():
        scaled[model] = {
            "WR": clean(m["win_rate"]),
            "CSR": clean(m["correction_success_rate"]),
            "slope": 0.5 if high == low else (slopes[model] - low) / (high - low),
            "1-ORR": 0.0 if math.isnan(m["over_correction_rate"]) else 1 - m["over_correction_rate"],
            "1-OBR": 0.0 if math.isnan(m["over_budget_rate"]) else 1 - m["over_budget_rate"],
        }
    return scaled


# ----------------------------------------------------------------- per match, for the record


def match_metrics(game, outcome, seed: int) -> dict[int, dict]:
    """The per-match metric of the three games: each seat's side, move order and core metrics of its match.

    Reads the played match from ``outcome.extra["advgame"]``. Per seat:
    ``role``, ``order``, ``rounds``, ``win_rate``, ``over_correction_rate``
    (paper), ``over_correction_rate_released``, ``correction_success_rate``
    (paper), ``improvement_slope``, ``over_budget_rate``, ``initial_win``,
    ``violations`` (rounds with one); NaN (not applicable) becomes None.
    """
    match = RevisionMatch.from_dict(outcome.extra["advgame"])
    found = {}
    for player, side in enumerate(match.sides):
        trace = match.trace(side)
        values = {
            "win_rate": win_rate(trace.rounds),
            "over_correction_rate": over_correction_rate_paper(trace.rounds),
            "over_correction_rate_released": correction_rate_released(trace.rounds, trace.order),
            "correction_success_rate": correction_success_rate_paper(trace.rounds),
            "improvement_slope": improvement_slope(trace.rounds),
            "over_budget_rate": over_budget_rate(trace.rounds),
            "initial_win": initial_win(trace.rounds),
        }
        found[player] = {"role": side, "order": trace.order, "rounds": len(trace.rounds),
                         "violations": sum(r.violation for r in trace.rounds),
                         **{k: None if math.isnan(v) else v for k, v in values.items()}}
    return found
