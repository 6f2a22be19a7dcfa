"""Pins what a Diplomacy power sees in a negotiation (recorded model traffic depends on it byte for byte).

A seeded three-round negotiation runs through the match runner with scripted
talkers (a private message to France, one France does not receive, a
broadcast); France's three negotiation prompts and its order prompt after
them are compared with golden files. Regenerate the files only for an
intended prompt change: ``STRATBENCH_REGOLD=1 pytest tests/games/test_diplomacy_negotiation_text.py``.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import pytest

pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")

from stratbench.games.spin.agents.diplomacy_baselines import HoldAgent  # noqa: E402
from stratbench.core.agent import AgentContext, AgentSpec  # noqa: E402
from stratbench.core.messages import Outgoing  # noqa: E402
from stratbench.core.runner import run_match  # noqa: E402
from stratbench.core.transcript import Transcript  # noqa: E402
from stratbench.games.spin.diplomacy import POWERS, Diplomacy  # noqa: E402
from stratbench.games.spin.diplomacy_text import SYSTEM_PROMPT  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"
FRANCE, GERMANY = POWERS.index("FRANCE"), POWERS.index("GERMANY")


class Talker(HoldAgent):
    """Holds, and sends scripted messages; keeps every observation it is given."""

    def __init__(self, context, seen):
        super().__init__(context)
        self.player, self.seen = context.player, seen

    async def negotiate(self, observation):
        self.seen.append(("negotiate", self.player, observation))
        turn = observation.negotiation
        if turn.round == 1 and self.player == 0:
            return [Outgoing("Austria to France only: shall we keep the Alps quiet?", (FRANCE,))]
        if turn.round == 1 and self.player == 1:
            return [Outgoing("England to Germany only", (GERMANY,))]
        if turn.round == 2 and self.player == GERMANY:
            return [Outgoing("Germany to everyone: peace in our time", ())]
        return []

    async def act(self, observation):
        self.seen.append(("act", self.player, observation))
        return await super().act(observation)


@pytest.fixture(scope="module")
def seen():
    game = Diplomacy("to1901")
    log: list = []
    agents = {p: Talker(AgentContext(AgentSpec("talker"), game, p, p, random.Random(p), Transcript()), log)
              for p in range(7)}
    asyncio.run(run_match(game, game.new_initial_state(3), agents, rng=random.Random(3)))
    return log


def _france(seen, kind, phase="S1901M"):
    return [o for k, p, o in seen if k == kind and p == FRANCE and o.data["phase"] == phase]


def _check(name, text):
    path = GOLDEN / name
    if os.environ.get("STRATBENCH_REGOLD"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed"


def test_negotiation_prompts_are_pinned(seen):
    talks = _france(seen, "negotiate")
    assert [o.negotiation.round for o in talks] == [1, 2, 3]
    for round_, observation in enumerate(talks, 1):
        assert observation.open_ended == {} and observation.asking.system_prompt == SYSTEM_PROMPT
        _check(f"diplomacy_s1901m_france_round{round_}.txt", observation.asking.prompt)
    assert "Austria to France only" in talks[1].asking.prompt and "England to Germany only" not in talks[2].asking.prompt
    assert "The messages of the earlier rounds of this phase are:" in talks[2].asking.prompt


def test_order_prompt_after_negotiation_is_pinned(seen):
    (orders,) = _france(seen, "act")
    assert orders.negotiation is None and set(orders.open_ended) == {"orders"}
    _check("diplomacy_s1901m_france_orders.txt", orders.asking.prompt)
    assert "GERMANY to all players: Germany to everyone: peace in our time" in orders.asking.prompt


def test_fall_negotiation_starts_again_at_round_one(seen):
    fall = _france(seen, "negotiate", "F1901M")
    assert [o.negotiation.round for o in fall] == [1, 2, 3]
    assert fall[0].asking.prompt.startswith("It is now round 1 of the negotiation phase.")
    assert "Germany to everyone" not in fall[0].asking.prompt  # spring messages stay in spring
