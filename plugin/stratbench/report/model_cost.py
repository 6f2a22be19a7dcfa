"""The models report section: what each model agent's decisions cost, where its answers were cut, and its
answer formats and reasoning efforts side by side.

- Cost per decision: per agent and game, over its scored matches and their
  decisions, the calls, the prompt tokens (and the share read from a provider
  cache), the completion tokens split into reasoning and answer (answer =
  completion − reasoning, as providers bill reasoning as completion), and the
  cost in USD per decision and in all. Read from each side's ``usage`` and
  ``decision_cost``; a count no match of the row reported shows
  :data:`NOT_REPORTED`.
- Truncations: per agent and game, the re-asks after a reply cut by the
  token limit (``sides[i].truncation_retries``) and the decisions that fell
  back because the answer was cut twice (``truncated[i]``), beside the
  illegal attempts, which are counted apart. Only records that carry these
  counts take part; without any the table is left out.
- Answer formats and reasoning efforts side by side: agents whose labels
  differ only in ``answers=`` (``MODEL+SCAFFOLD(answers=tools)``) or only in
  ``effort=`` are shown together per game, paired the way
  :func:`stratbench.report.scaffolds.paired_scores` pairs scaffolds (game,
  variant, seed, the agent's seat, the opponents).

Each table names its headline columns (USD, Δ and its interval) for the page
(:mod:`stratbench.report.layout`); the token counts fold into its detail.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from stratbench.report.labels import label_settings, with_settings
from stratbench.report.scaffolds import RESAMPLES, paired_difference, pairing_key
from stratbench.report.unplayed import NONE, unplayed_counts

__all__ = ["NOT_REPORTED", "UNPRICED", "model_cost", "usd"]

UNPRICED = "unpriced (give --price)"
"""A cost cell for tokens litellm has no price for (``--price MODEL=IN,OUT`` gives one)."""

NOT_REPORTED = "—"
"""The cell of a count that no match of the row reported."""


_EFFORT_ORDER = ("default", "low", "medium", "high")


@dataclass
class _Tally:
    """One row's sums over the model sides it pools."""

    matches: int = 0
    decisions: int = 0
    calls: int = 0
    prompt: int = 0
    completion: int = 0
    illegal: int = 0
    cost: float = 0.0
    cost_matches: int = 0
    cost_decisions: int = 0
    reasoning: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cached: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    truncation: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    scores: list[float] = field(default_factory=list)
    local: bool = False
    """A ``local/`` model: its tokens cost nothing, so a cost of 0 is a price."""

    def add(self, record: dict[str, Any], index: int) -> None:
        """Adds one model side of a record (one :func:`_model_sides` lists)."""
        self.local = self.local or str(record["sides"][index].get("model") or "").startswith("local/")
        cost = _at(record.get("decision_cost"), index)
        usage = _at(record.get("usage"), index)
        decisions = int(cost["decisions"] if cost else _at(record.get("decisions"), index) or 0)
        source = cost or usage
        self.matches += 1
        self.decisions += decisions
        self.calls += int(source["calls"])
        self.prompt += int(source["prompt_tokens"])
        self.completion += int(source["completion_tokens"])
        self.illegal += int(_at(record.get("illegal"), index) or 0)
        if record.get("scores") is not None:
            self.scores.append(float(record["scores"][index]))
        if usage is not None and usage.get("cost_usd") is not None:
            self.cost += float(usage["cost_usd"])
            self.cost_matches += 1
            self.cost_decisions += decisions
        if usage is not None and usage.get("reasoning_tokens") is not None:
            self._count(self.reasoning, decisions, tokens=int(usage["reasoning_tokens"]),
                        completion=int(source["completion_tokens"]))
        if usage is not None and usage.get("cached_tokens") is not None:
            self._count(self.cached, decisions, tokens=int(usage["cached_tokens"]),
                        prompt=int(source["prompt_tokens"]))
        cut = _at(record.get("truncated"), index)
        retries = record["sides"][index].get("truncation_retries")
        if cut is not None or retries is not None:
            self._count(self.truncation, decisions, truncated=int(cut or 0), retries=int(retries or 0))

    @staticmethod
    def _count(into: dict[str, int], decisions: int, **counts: int) -> None:
        into["matches"] += 1
        into["decisions"] += decisions
        for key, value in counts.items():
            into[key] += value

    def per_decision(self, total: float) -> float | None:
        return total / self.decisions if self.decisions else None

    def reasoning_cells(self) -> tuple[Any, Any]:
        """Reasoning and answer tokens per decision, over the matches that reported reasoning."""
        r = self.reasoning
        if not r["matches"] or not r["decisions"]:
            return NOT_REPORTED, NOT_REPORTED
        return (self._partial(r["tokens"] / r["decisions"], r["matches"]),
                self._partial((r["completion"] - r["tokens"]) / r["decisions"], r["matches"]))

    def cached_cell(self) -> Any:
        """The cached share of the prompt tokens, over the matches that reported a cached count."""
        c = self.cached
        if not c["matches"]:
            return NOT_REPORTED
        share = f"{100 * c['tokens'] / c['prompt']:.0f}%" if c["prompt"] else "–"
        return share if c["matches"] == self.matches else f"{share} ({c['matches']} of {self.matches} matches)"

    def cost_cells(self) -> tuple[Any, Any]:
        if not self.cost_matches:
            return NOT_REPORTED, NOT_REPORTED
        if self.cost == 0 and self.prompt + self.completion > 0 and not self.local:
            return UNPRICED, UNPRICED  # tokens no price covered: never a 0 that reads as free
        per = self.cost / self.cost_decisions if self.cost_decisions else None
        return (None if per is None else self._partial(usd(per), self.cost_matches),
                self._partial(usd(self.cost), self.cost_matches))

    def truncated_cell(self) -> str:
        t = self.truncation
        if not t["matches"]:
            return NOT_REPORTED
        return f"{t['truncated']} of {t['decisions']} decisions"

    def _partial(self, value: float | str | None, reported: int) -> Any:
        """The value as is when every match reported it, else with how many did."""
        if value is None or reported == self.matches:
            return value
        shown = value if isinstance(value, str) else f"{value:.2f}"
        return f"{shown} ({reported} of {self.matches} matches)"


def usd(amount: float) -> str:
    """An amount in USD to four significant digits below one dollar, to the cent above.

    Examples:
        >>> usd(0.025), usd(1 / 3000), usd(0.0), usd(12.3456)
        ('0.025', '0.0003333', '0', '12.35')
    """
    return f"{amount:.2f}" if amount >= 1 else f"{amount:.4g}"


def _at(values: Any, index: int) -> Any:
    return values[index] if isinstance(values, list | tuple) and index < len(values) else None


def _model_sides(record: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The sides a model plays that have usage to count (``decision_cost`` or ``usage``), with their index."""
    return [(i, side) for i, side in enumerate(record.get("sides") or [])
            if side.get("model") and (_at(record.get("decision_cost"), i) or _at(record.get("usage"), i))]


def _tallies(records: list[dict[str, Any]]) -> dict[tuple[str, str], _Tally]:
    """Pools every model side per ``(agent, game)``."""
    tallies: dict[tuple[str, str], _Tally] = defaultdict(_Tally)
    for record in records:
        for index, side in _model_sides(record):
            tallies[(side["agent"], record["game"])].add(record, index)
    return tallies


def _unplayed(unscored: list[dict[str, Any]]) -> dict[Any, dict[str, int]]:
    """Counts the errored and skipped matches per ``(agent, game)`` of a model side."""
    return unplayed_counts(unscored, lambda r: [(s.get("agent", "?"), r.get("game", "?"))
                                                for s in r.get("sides", []) if s.get("model")])


COST_COLUMNS = ["agent", "game", "matches", "errored", "skipped", "decisions", "calls / decision",
                "prompt tokens / decision", "cached share of prompt", "completion tokens / decision",
                "reasoning tokens / decision", "answer tokens / decision", "cost / decision (USD)",
                "cost in all (USD)"]
TRUNCATION_COLUMNS = ["agent", "game", "matches", "errored", "skipped", "decisions", "re-asks after a cut reply",
                      "decisions fell back truncated", "truncated", "illegal attempts"]
COST_KEY_COLUMNS = ["matches", "decisions", "cost / decision (USD)", "cost in all (USD)"]
"""The cost table's headline columns (after agent and game); the token counts fold into its detail."""
TRUNCATION_KEY_COLUMNS = ["truncated", "re-asks after a cut reply", "illegal attempts"]
"""The truncation table's headline columns (after agent and game)."""


def _cost_rows(tallies: dict[tuple[str, str], _Tally], unplayed: dict[Any, dict[str, int]]) -> list[list[Any]]:
    rows = []
    for agent, game in sorted({*tallies, *unplayed}):
        tally = tallies.get((agent, game)) or _Tally()
        counts = unplayed.get((agent, game), NONE)
        reasoning, answer = tally.reasoning_cells()
        rows.append([agent, game, tally.matches, counts["errored"], counts["skipped"], tally.decisions,
                     tally.per_decision(tally.calls), tally.per_decision(tally.prompt), tally.cached_cell(),
                     tally.per_decision(tally.completion), reasoning, answer, *tally.cost_cells()])
    return rows


def _truncation_rows(records: list[dict[str, Any]], unplayed: dict[Any, dict[str, int]]) -> list[list[Any]]:
    """Rows over the records that carry truncation counts (none: no rows)."""
    carrying = [r for r in records if r.get("truncated") is not None
                or any(s.get("truncation_retries") is not None for _, s in _model_sides(r))]
    rows = []
    for (agent, game), tally in sorted(_tallies(carrying).items()):
        t = tally.truncation
        counts = unplayed.get((agent, game), NONE)
        rows.append([agent, game, tally.matches, counts["errored"], counts["skipped"], tally.decisions,
                     t["retries"] if t["matches"] else NOT_REPORTED,
                     t["truncated"] if t["matches"] else NOT_REPORTED, tally.truncated_cell(), tally.illegal])
    return rows


@dataclass(frozen=True)
class _Axis:
    """A call setting shown side by side: its label key, the value an unmarked label has, the order, and the
    measure shown among the headline columns (the others fold into the table's detail)."""

    key: str
    title: str
    unmarked: str
    order: tuple[str, ...]
    headline: str


ANSWERS = _Axis("answers", "Answer formats side by side", "text", ("text", "tools"), "illegal attempts / decision")
EFFORTS = _Axis("effort", "Reasoning efforts side by side", "default", _EFFORT_ORDER, "cost / decision (USD)")


def _by_axis(records: list[dict[str, Any]], axis: _Axis) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """Maps (game, label without the axis) to each value's agent label, per-match tallies and paired scores."""
    found: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for record in records:
        if record.get("scores") is None:
            continue
        for index, side in _model_sides(record):
            base, settings = label_settings(side["agent"])
            value = settings.pop(axis.key, axis.unmarked)
            entry = found[(record["game"], with_settings(base, settings))].setdefault(
                value, {"agent": side["agent"], "tally": _Tally(), "paired": {}})
            entry["tally"].add(record, index)
            entry["paired"][pairing_key(record, index)] = float(record["scores"][index])
    return found


def _axis_tables(records: list[dict[str, Any]], unplayed: dict[Any, dict[str, int]], axis: _Axis
                 ) -> list[dict[str, Any]]:
    by_game: dict[str, list[list[Any]]] = defaultdict(list)
    baselines: dict[str, set[str]] = defaultdict(set)
    for (game, base), values in sorted(_by_axis(records, axis).items()):
        if len(values) < 2:
            continue
        order = sorted(values, key=lambda v: (axis.order.index(v) if v in axis.order else len(axis.order), v))
        baseline = values[order[0]]["paired"]
        baselines[game].add(order[0])
        for value in order:
            entry = values[value]
            tally: _Tally = entry["tally"]
            counts = unplayed.get((entry["agent"], game), NONE)
            scores = tally.scores
            row: list[Any] = [base, value, tally.matches, counts["errored"], counts["skipped"],
                              sum(scores) / len(scores) if scores else None]
            differences = [s - baseline[k] for k, s in entry["paired"].items() if k in baseline]
            if value != order[0] and differences:
                mean, low, high = paired_difference(differences)
                row += [len(differences), mean, f"[{low:.3f}, {high:.3f}]"]
            else:
                row += [None, None, None]
            if axis is ANSWERS:
                row += [tally.per_decision(tally.illegal), tally.truncated_cell(), tally.per_decision(tally.calls),
                        tally.per_decision(tally.prompt + tally.completion)]
            else:
                row += [tally.reasoning_cells()[0], tally.cost_cells()[0]]
            by_game[game].append(row)
    tables = []
    for game, rows in sorted(by_game.items()):
        against = " / ".join(sorted(baselines[game], key=lambda v: (v not in axis.order, v)))
        measures = (["illegal attempts / decision", "truncated", "calls / decision", "tokens / decision"]
                    if axis is ANSWERS else ["reasoning tokens / decision", "cost / decision (USD)"])
        tables.append({
            "title": f"{axis.title}: {game}",
            "columns": ["agent", axis.key, "matches", "errored", "skipped", "mean score", "pairs",
                        f"Δ vs {against}", "95% interval", *measures],
            "rows": rows,
            "note": AXES_NOTE[axis.key],
            "label_columns": ["agent", axis.key],
            "key_columns": ["mean score", f"Δ vs {against}", "95% interval", axis.headline],
        })
    return tables


COST_NOTE = (
    "Per agent and game, over its scored matches and the decisions taken in them: every model call (deciding, "
    "reasoning, critiquing, negotiating). Completion tokens include the reasoning tokens (providers bill them "
    "as completion); answer = completion − reasoning. Cached share = prompt tokens read from a provider cache / "
    f"prompt tokens. {NOT_REPORTED} = no match of the row reported that count (the provider gave none, or the "
    "records predate it); a value marked '(k of n matches)' is over the k matches that reported it. The agent's "
    "errored and skipped matches are counted beside (they have no decisions to pool)."
)
TRUNCATION_NOTE = (
    "A reply cut by the output-token limit (finish reason length) is asked once more, briefly (re-asks); cut "
    "again, the decision falls back to the game's fallback (reason truncated) and is counted here, never as an "
    "illegal attempt. Illegal attempts (replies read but refused) are shown beside and counted apart. Over the "
    f"matches whose records carry these counts; {NOT_REPORTED}: none of the row's did."
)
PAIRING = ("Matches pair on game, variant, seed, the agent's seat and the opponents; Δ is the mean paired "
           "score difference from the first row, with a percentile bootstrap 95% interval "
           f"({RESAMPLES} resamples, seed 0). Means, rates and counts are over each row's matches.")
AXES_NOTE = {
    ANSWERS.key: "Agents whose labels differ only in answers= (text: the reply's text is read; tools: the move "
                 "is a make_move tool call). " + PAIRING,
    EFFORTS.key: "Agents whose labels differ only in effort= (default: none set, the provider's own). " + PAIRING,
}


def model_cost(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """The section (see the module); None when no model played."""
    unplayed = _unplayed(list(unscored))
    cost = _cost_rows(_tallies(records), unplayed)
    if not cost:
        return None
    names = ["agent", "game"]
    tables = [{"title": "Cost per decision", "columns": COST_COLUMNS, "rows": cost, "note": COST_NOTE,
               "label_columns": names, "key_columns": COST_KEY_COLUMNS}]
    truncations = _truncation_rows(records, unplayed)
    if truncations:
        tables.append({"title": "Truncated answers", "columns": TRUNCATION_COLUMNS, "rows": truncations,
                       "note": TRUNCATION_NOTE, "label_columns": names, "key_columns": TRUNCATION_KEY_COLUMNS})
    tables += _axis_tables(records, unplayed, ANSWERS)
    tables += _axis_tables(records, unplayed, EFFORTS)
    return {
        "title": "Models: cost, truncated answers, answer formats and efforts",
        "note": None,
        "tables": tables,
    }
