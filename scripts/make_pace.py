"""Writes ``plugin/stratbench/run/pace.json``: per game, the decisions a side takes in a match and the prompt
tokens of one call, read from an offline main job's results (``pytest suites/ --report-dir DIR``).

    python scripts/make_pace.py reports/latest/results.jsonl

Decisions per side come from every scored match (the baseline agents' games: how long a game of that kind runs
here); prompt tokens per call from the recorded model sides (a prompt's size depends on the game, not the model).
The run's cost estimate (:mod:`stratbench.run.estimate`) multiplies them by the matches a run plays.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "plugin" / "stratbench" / "run" / "pace.json"


def main(results: Path) -> int:
    decisions: dict[str, list[int]] = defaultdict(list)
    prompts: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for line in results.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("status") != "scored":
            continue
        game = record["game"]
        decisions[game] += [int(d) for d in record.get("decisions") or [] if d]
        for usage in record.get("usage") or []:
            if usage and usage.get("calls"):
                prompts[game].append((int(usage["prompt_tokens"]), int(usage["calls"])))
    games = {}
    for game in sorted(decisions):
        calls = sum(c for _, c in prompts[game])
        games[game] = {"decisions_per_side": round(sum(decisions[game]) / len(decisions[game]), 1),
                       "prompt_tokens_per_call": round(sum(p for p, _ in prompts[game]) / calls) if calls else None}
    OUT.write_text(json.dumps({"about": "Per game: a side's decisions in a match and one call's prompt tokens, from "
                                        "the offline main job. Written by scripts/make_pace.py.",
                               "games": games}, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(games)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
