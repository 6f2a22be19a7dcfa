"""The report's gate section: per game the decision, its numbers and the LLR path between its bounds.

It reads ``data["gate"]`` (:meth:`stratbench.report.gate.GateResult.to_dict`),
which a pytest run with ``--baseline`` or ``--stratbench-gate-map`` stores in
results.json.
"""

from __future__ import annotations

from typing import Any

from stratbench.report.svg import xy_chart

__all__ = ["GATE_COLUMNS", "GATE_KEY_COLUMNS", "gate_rows", "llr_chart", "unit_notes"]

GATE_COLUMNS = ["agent", "compared with", "game", "decision", "pairs", "LLR (bounds)", "difference [95%]",
                "seed spread", "more pairs"]
GATE_KEY_COLUMNS = ["agent", "game", "decision", "difference [95%]"]
"""The gate table's headline columns (``data-key`` in report.html)."""


def _number(value: Any, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def gate_rows(gate: dict[str, Any]) -> list[list[str]]:
    """Returns one row of cells per test, as :data:`GATE_COLUMNS`."""
    rows = []
    for t in gate.get("tests", []):
        used = t["pairs"] if t.get("decided_at") is None else t["decided_at"]
        pairs = f"{used}" if used == t["pairs"] else f"{used} of {t['pairs']}"
        if t.get("incomplete"):
            pairs += f" ({t['incomplete']} incomplete)"
        low, high = t.get("interval") or (None, None)
        difference = "–"
        if t.get("estimate") is not None:
            difference = f"{t['estimate']:+.3g} {t['unit']}"
            if low is not None and high is not None:
                difference += f" [{low:+.3g}, {high:+.3g}]"
        more = "–"
        if t["decision"] == "inconclusive":
            more = "?" if t.get("more_pairs") is None else f"about {t['more_pairs']}"
            if t.get("more_cost") is not None:
                more += f" (${t['more_cost']:.2f})"
        rows.append([
            t["agent"], t["base_agent"] + (" (head to head)" if t["pairing"] == "head-to-head" else ""), t["game"],
            t["decision"], pairs, f"{t['llr']:+.2f} ({t['lower']:+.2f}, {t['upper']:+.2f})", difference,
            _number(t.get("seed_spread"), ".3f"), more,
        ])
    return rows


def unit_notes(gate: dict[str, Any]) -> list[str]:
    """What a test's row cannot hold, one line per test that has any: units left out and why (incomplete,
    repeats, voided by the harness) and errored matches charged as losses."""
    notes = []
    for t in gate.get("tests", []):
        parts = []
        if t.get("incomplete"):
            why = t.get("why_incomplete") or []
            parts.append(f"{t['incomplete']} incomplete unit(s) not used" + (f" ({'; '.join(why)})" if why else ""))
        if t.get("repeats"):
            parts.append(f"{t['repeats']} repeat unit(s) not counted (the same games as an earlier unit)")
        if t.get("charged"):
            parts.append(f"{t['charged']} errored match(es) counted as losses")
        if t.get("voided"):
            parts.append(f"{len(t['voided'])} errored match(es) voided their unit(s)")
        if parts:
            notes.append(f"{t['agent']} on {t['game']}: " + "; ".join(parts))
    return notes


def llr_chart(test: dict[str, Any]) -> str:
    """Draws a test's LLR after each pair between its two bounds (an SVG, "" without pairs)."""
    path = test.get("llr_path") or []
    if not path:
        return ""
    n = len(path)
    lower, upper = test["lower"], test["upper"]
    low = min(lower, *path) - 0.5
    high = max(upper, *path) + 0.5
    return xy_chart(
        [{"name": f"LLR {test['agent']} · {test['game']}", "points": [[k + 1, y] for k, y in enumerate(path)]},
         {"name": f"fail below {lower:+.2f}", "points": [[1, lower], [max(n, 2), lower]]},
         {"name": f"pass above {upper:+.2f}", "points": [[1, upper], [max(n, 2), upper]]}],
        x_label="pairs", y_label="LLR", y_range=(low, high), height=220)
