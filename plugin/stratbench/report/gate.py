"""The regression gate: did an agent get worse than its baseline?

Two checks, each a function returning a message or None:

* :func:`rating_drop` — the agent's rating interval lies entirely below its
  baseline interval by more than ``tolerance`` rating points;
* :func:`paired_score_drop` — over the matches both runs share (same match id;
  with an agent map NEW=OLD, same test, seats with labels mapped, seed,
  variant and subject seat), a paired bootstrap of the per-match score
  differences puts the upper end of its one-sided ``confidence`` interval
  below ``-min_drop``.

A failing agent's explanation adds one line per game: its mean score there
against the baseline agent's (all matches of each run, shared or not).

Noise passes: overlapping intervals and paired differences whose interval
covers zero are not regressions. Changed package versions or model strings
are notes, never failures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["GateResult", "GateSettings", "check", "game_lines", "paired_score_drop", "rating_drop"]


@dataclass(frozen=True)
class GateSettings:
    """How strict the gate is.

    Attributes:
        tolerance: Rating points an interval may fall below the baseline's before failing.
        min_drop: The smallest mean score drop (0..1 scale) that counts.
        confidence: One-sided confidence of the paired bootstrap.
        resamples: Paired bootstrap resamples.
        agent_map: Current agent label → baseline agent label (a model upgrade).
    """

    tolerance: float = 0.0
    min_drop: float = 0.0
    confidence: float = 0.95
    resamples: int = 2000
    agent_map: dict[str, str] = field(default_factory=dict)


@dataclass
class GateResult:
    """What the gate found."""

    failures: list[str]
    passes: list[str]
    warnings: list[str]
    games: dict[str, list[str]] = field(default_factory=dict)
    """Per failing agent: one line per game comparing its mean score with the baseline's."""

    @property
    def failed(self) -> bool:
        """Tells whether any check failed."""
        return bool(self.failures)

    def explain(self) -> str:
        """Returns a one-screen explanation."""
        lines = ["stratbench gate: " + ("FAILED" if self.failed else "passed")]
        for k, message in enumerate(self.failures):
            lines.append(f"  FAIL  {message}")
            agent = next((a for a in self.games if message.startswith(f"{a}: ")), None)
            later = self.failures[k + 1:]
            if agent is not None and not any(m.startswith(f"{agent}: ") for m in later):
                lines += [f"          {line}" for line in self.games[agent]]
        lines += [f"  ok    {m}" for m in self.passes]
        lines += [f"  note  {m}" for m in self.warnings]
        return "\n".join(lines)


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
    """Returns a message when ``agent``'s interval lies below ``base_agent``'s baseline interval."""
    now, before = _interval(current, agent), _interval(baseline, base_agent)
    if now is None or before is None:
        return None
    if now[1] < before[0] - tolerance:
        return (
            f"{agent}: rating {now[2]:+.2f} [{now[0]:+.2f}, {now[1]:+.2f}] lies below the baseline "
            f"{base_agent} {before[2]:+.2f} [{before[0]:+.2f}, {before[1]:+.2f}] by more than {tolerance:.2f}"
        )
    return None


def _match_key(row: dict[str, Any], mapping: dict[str, str] | None) -> tuple[Any, ...]:
    """Identifies a match across runs.

    Without an agent map this is the match id. With one (NEW=OLD), a match is
    identified by its test, its seats (current labels mapped to the
    baseline's), seed, variant and subject seat, since the renamed agent's
    match ids differ; rewriting the id's text instead could also change other
    labels that contain NEW.
    """
    if mapping is None or row.get("seed") is None:
        return ("id", row["match_id"])
    agents = tuple(mapping.get(name, name) for name in row["agents"])
    test = str(row["match_id"]).split("[", 1)[0]
    return ("seats", test, row.get("game"), agents, row.get("seed"), row.get("variant"), row.get("subject"))


def _scores_by_match(report: dict[str, Any], agent: str,
                     mapping: dict[str, str] | None) -> dict[tuple[Any, ...], float]:
    """Maps each match (keyed by :func:`_match_key`) to the agent's mean score in it."""
    out: dict[tuple[Any, ...], float] = {}
    for row in report.get("matches", []):
        sides = [i for i, name in enumerate(row["agents"]) if name == agent]
        if not sides:
            continue
        out[_match_key(row, mapping)] = sum(float(row["scores"][i]) for i in sides) / len(sides)
    return out


def paired_score_drop(current: dict[str, Any], baseline: dict[str, Any], agent: str, base_agent: str,
                      settings: GateSettings) -> tuple[str | None, str]:
    """Returns (a failure message or None, a one-line description) for the paired bootstrap."""
    mapping = {**settings.agent_map, agent: base_agent} if settings.agent_map or agent != base_agent else None
    now = _scores_by_match(current, agent, mapping)
    before = _scores_by_match(baseline, base_agent, {} if mapping is not None else None)
    shared = sorted(set(now) & set(before), key=repr)
    if len(shared) < 2:
        return None, f"{agent}: {len(shared)} shared match(es) with the baseline; no paired test"
    import numpy as np

    diffs = np.sort([now[k] - before[k] for k in shared])  # sorted: the result depends on the differences only
    n = len(diffs)
    draws = np.random.default_rng(0).integers(0, n, size=(settings.resamples, n))
    means = np.sort(diffs[draws].mean(axis=1))
    upper = float(means[min(len(means) - 1, int(settings.confidence * len(means)))])
    mean = float(diffs.mean())
    text = f"{agent}: mean score change {mean:+.3f} over {n} shared matches ({settings.confidence:.0%} upper bound {upper:+.3f})"
    if upper < -settings.min_drop:
        return f"{text}: a significant drop", text
    return None, text


def _game_means(report: dict[str, Any], agent: str) -> dict[str, tuple[float, int]]:
    """Maps each game to (the agent's mean score, its matches) over a report's matches."""
    totals: dict[str, list[float]] = {}
    for row in report.get("matches", []):
        sides = [i for i, name in enumerate(row["agents"]) if name == agent]
        if sides:
            totals.setdefault(str(row.get("game")), []).append(
                sum(float(row["scores"][i]) for i in sides) / len(sides))
    return {game: (sum(scores) / len(scores), len(scores)) for game, scores in totals.items()}


def game_lines(current: dict[str, Any], baseline: dict[str, Any], agent: str, base_agent: str) -> list[str]:
    """Returns one line per game the agent played: its mean score against the baseline agent's."""
    now, before = _game_means(current, agent), _game_means(baseline, base_agent)
    lines = []
    for game in sorted(now):
        mean, n = now[game]
        if game not in before:
            lines.append(f"{game}: mean score {mean:.2f} over {n} matches; not in the baseline")
            continue
        base_mean, m = before[game]
        count = f"{n} matches" if n == m else f"{n} and {m} matches"
        lines.append(f"{game}: mean score {mean:.2f} vs baseline {base_mean:.2f} over {count}")
    return lines


def check(current: dict[str, Any], baseline: dict[str, Any], settings: GateSettings = GateSettings()) -> GateResult:
    """Runs both checks for every agent the two reports share (or the mapped pairs)."""
    result = GateResult([], [], [])
    now_agents = set(current.get("agents", []))
    base_agents = set(baseline.get("agents", []))
    pairs = {a: settings.agent_map.get(a, a) for a in sorted(now_agents)}
    pairs = {a: b for a, b in pairs.items() if b in base_agents}
    for missing in sorted(set(settings.agent_map.values()) - base_agents):
        result.warnings.append(f"baseline has no agent {missing!r}; not compared")
    unmatched = sorted(base_agents - set(pairs.values()))
    if unmatched:
        result.warnings.append(f"baseline agents not in this run: {', '.join(unmatched)}")
    if not pairs:
        result.warnings.append("no agent appears in both runs: nothing to compare (use an agent map NEW=OLD)")
    for agent, base_agent in pairs.items():
        message = rating_drop(current, baseline, agent, base_agent, settings.tolerance)
        if message:
            result.failures.append(message)
        failure, description = paired_score_drop(current, baseline, agent, base_agent, settings)
        if failure:
            result.failures.append(failure)
        elif not message:
            result.passes.append(description)
        if message or failure:
            result.games[agent] = game_lines(current, baseline, agent, base_agent)
    now_versions = (current.get("manifest") or {}).get("packages", {})
    base_versions = (baseline.get("manifest") or {}).get("packages", {})
    for package in ("litellm", "pytest-stratbench"):
        if package in now_versions and package in base_versions and now_versions[package] != base_versions[package]:
            result.warnings.append(f"{package} {base_versions[package]} -> {now_versions[package]}")
    now_models = set((current.get("manifest") or {}).get("models", []))
    base_models = set((baseline.get("manifest") or {}).get("models", []))
    if now_models != base_models and (now_models or base_models):
        result.warnings.append(f"models {', '.join(sorted(base_models)) or '(none)'} -> "
                               f"{', '.join(sorted(now_models)) or '(none)'}")
    return result
