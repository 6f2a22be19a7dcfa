"""The cost estimate said before a live run plays: matches × expected calls × price.

Per game, ``pace.json`` (``scripts/make_pace.py``, from the offline main job) gives a side's decisions in a match
and one call's prompt tokens. A run's matches with a model times those make its expected calls (one per decision:
retries, re-asks and scaffolds that call more than once add to it) and prompt tokens; litellm's price (or
``--price``) turns the prompt tokens into USD. The answers' tokens depend on the model, so their price is given per
1,000 tokens instead of guessed::

    stratbench: estimate: 14 match(es) with openai/gpt-4o: about 66 calls (one per decision; retries and scaffolds
    that ask twice add more) and 50,312 prompt tokens, about 0.13 USD in prompts, plus 0.01 USD per 1,000 answer
    tokens; --max-cost caps the spending
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["estimate_lines"]


@lru_cache(maxsize=1)
def _pace() -> dict[str, dict[str, Any]]:
    data = json.loads(resources.files("stratbench.run").joinpath("pace.json").read_text(encoding="utf-8"))
    return dict(data["games"])


def estimate_lines(matches: dict[str, Counter], prices: dict[str, tuple[float, float]]) -> list[str]:
    """One line per model: ``matches`` maps a model to its matches per game (the collected matches it plays a
    side of); ``prices`` are ``--price``'s (USD per token, input and output)."""
    from stratbench.llm.budget import unpriced_models, usd  # lean: litellm loads only when a model plays
    from stratbench.llm.client import import_litellm  # lean: as above

    pace = _pace()
    lines = []
    for model, games in sorted(matches.items()):
        total = sum(games.values())
        if not total:
            continue
        calls = sum(n * (pace.get(game) or {}).get("decisions_per_side", 0) for game, n in games.items())
        prompt = sum(n * (pace.get(game) or {}).get("decisions_per_side", 0)
                     * ((pace.get(game) or {}).get("prompt_tokens_per_call") or 0) for game, n in games.items())
        unknown = sorted(game for game in games if game not in pace)
        tokens = f"{prompt / 1e6:.1f}M" if prompt >= 1e6 else f"{prompt:,.0f}"
        line = (f"stratbench: estimate: {total} match(es) with {model}: about {calls:,.0f} calls (one per decision; "
                f"retries and scaffolds that ask twice add more) and {tokens} prompt tokens")
        if model in prices:
            per_in, per_out = prices[model]
        elif model.startswith("local/"):
            per_in = per_out = 0.0
        elif unpriced_models([model], prices):
            per_in = per_out = None
        else:
            per_in, per_out = import_litellm().cost_per_token(model=model, prompt_tokens=1, completion_tokens=1)
        if per_in is None:
            line += "; unpriced (give --price MODEL=IN,OUT to see the cost)"
        else:
            line += (f", about {usd(round(prompt * per_in, 2))} USD in prompts, plus {usd(round(per_out * 1000, 6))} "
                     "USD per 1,000 answer tokens")
        if unknown:
            line += f" (no pace known for {', '.join(unknown)}: not counted)"
        lines.append(line + "; --max-cost caps the spending")
    return lines
