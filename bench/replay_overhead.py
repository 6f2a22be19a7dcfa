"""Harness + cassette overhead per LLM call in replay, against litellm's own floor.

For N = 10, 100 and 1000 calls per match, a one-player counting game is
recorded once against the loopback fake server, then replayed from its
cassette (server stopped). The replay time per call (game, runner, scaffold,
parser, client, litellm, vcrpy, cassette load) is compared with
``litellm.acompletion(..., mock_response=...)`` per call in the same process:
the cheapest a litellm call can be.

Usage:
    python bench/replay_overhead.py [--repeats 3] [--sizes 10,100,1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("DISABLE_AIOHTTP_TRANSPORT", "True")

import stratbench.builtins as builtins  # noqa: E402
from stratbench.core.agent import AgentSpec  # noqa: E402
from stratbench.core.game import Game, GameInfo, State  # noqa: E402
from stratbench.core.schedule import MatchSpec, SuiteSpec  # noqa: E402
from stratbench.core.types import Observation, Rules  # noqa: E402
from stratbench.registry import Registry  # noqa: E402
from stratbench.session import RunSettings, StratbenchSession  # noqa: E402
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402


class CountState(State):
    """A single player picks a number ``length`` times."""

    def _current_players(self):
        return [0]

    def _legal_actions(self, player):
        return ["1", "2", "3"]

    def _apply(self, actions):
        pass

    def _is_terminal(self):
        return self.turn >= self.game.length

    def _scores(self):
        return [1.0]


class Count(Game):
    rules = Rules("Count", "Pick any number each turn.")

    def __init__(self, variant: str | None = None) -> None:
        self.length = int(variant or 10)
        self.info = GameInfo("count", 1, ((0,),), max_turns=self.length, score_sum=None, score_range=(0, 1))

    def new_initial_state(self, seed):
        return CountState(self)

    def observe(self, state, player):
        return Observation("count", 0, f"Turn {state.turn + 1} of {self.length}.", ("1", "2", "3"), self.rules,
                           turn=state.turn)


def make_session(root: Path, mode: str, api_base: str | None) -> StratbenchSession:
    registry = Registry()
    for hook in ("games", "agents", "scaffolds", "metrics"):
        getattr(builtins, f"pytest_stratbench_add_{hook}")(registry=registry)
    registry.add_game("count", Count)
    settings = RunSettings(models=["openai/m"], api_base=api_base, report_dir=root / "reports",
                           cassette_dir=root / "cassettes", record_mode=mode, run_id="bench")
    return StratbenchSession(settings, registry, is_controller=False)


def spec(n: int) -> MatchSpec:
    return MatchSpec("count", (AgentSpec("llm", "openai/m", "direct"),), 0, 0, f"count-{n}", variant=str(n))


def replay_per_call(root: Path, n: int, repeats: int) -> float:
    node = f"suites/bench/test_count.py::test_count[openai/m+direct-{n}-s0]"
    with FakeLLMServer() as server:
        recorder = make_session(root, "once", server.api_base)
        recorder.play(spec(n), SuiteSpec("count"), node)
        recorder.close()
    timings = []
    for _ in range(repeats):
        session = make_session(root, "none", None)
        start = time.perf_counter()
        played = session.play(spec(n), SuiteSpec("count"), node)
        timings.append((time.perf_counter() - start) / n)
        session.close()
        assert played.record["usage"][0]["calls"] == n
    return statistics.median(timings)


def floor_per_call(n: int, repeats: int) -> float:
    import litellm

    messages = [{"role": "system", "content": "You are an agent playing a game."},
                {"role": "user", "content": "Turn 1 of 10.\nLegal actions: 1, 2, 3"}]

    async def calls() -> None:
        for _ in range(n):
            await litellm.acompletion(model="openai/m", messages=messages, mock_response="Action: 1")

    loop = asyncio.new_event_loop()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        loop.run_until_complete(calls())
        timings.append((time.perf_counter() - start) / n)
    loop.close()
    return statistics.median(timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", default="10,100,1000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    floor_per_call(10, 1)  # warm up imports and litellm's lazy setup
    print(f"{'calls/match':>11} {'replay ms/call':>15} {'floor ms/call':>14} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            replay = replay_per_call(Path(tmp), n, args.repeats)
            floor = floor_per_call(n, args.repeats)
            print(f"{n:>11} {replay * 1000:>15.2f} {floor * 1000:>14.2f} {replay / floor:>6.2f}")


if __name__ == "__main__":
    main()
