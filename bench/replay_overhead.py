"""Harness + cassette overhead per LLM call in replay, against litellm's own floor.

For N = 10, 100 and 1000 calls per match, a one-player counting game is
recorded once against the loopback fake server, then replayed from its
cassette (server stopped). The replay time per call (game, runner, scaffold,
parser, client, litellm, vcrpy, cassette load) is compared with
``litellm.acompletion(..., mock_response=...)`` per call in the same process:
the cheapest a litellm call can be. A second reference, the *network
floor*, is litellm's own ``network_mock``: its full request path (the OpenAI
SDK, httpx, parsing and pricing a real response) against a mock transport
that answers at once; what a replay adds to it is stratbench (game, runner,
scaffold, client, cassette router) and vcrpy (its stub, the cassette's load
and lookup).

Replay and floor alternate repeat by repeat, and each figure is the median.

``--model`` names the model the match is recorded and replayed as (default
``openai/m``, missing from litellm's price map; ``openai/gpt-4o-mini`` is
priced, which changes the cost calculation both sides make).

Usage:
    python bench/replay_overhead.py [--repeats 5] [--sizes 10,100,1000] [--model openai/m]
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

from stratbench.families import standalone_registry  # noqa: E402
from stratbench.core.agent import AgentSpec  # noqa: E402
from stratbench.core.game import Game, GameInfo, State  # noqa: E402
from stratbench.core.schedule import MatchSpec, SuiteSpec  # noqa: E402
from stratbench.core.types import Observation, Rules  # noqa: E402
from stratbench.run.session import RunSettings, StratbenchSession  # noqa: E402
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
    registry = standalone_registry(("games", "agents", "scaffolds", "metrics"))
    registry.add_game("count", Count)
    settings = RunSettings(models=[MODEL], api_base=api_base, report_dir=root / "reports",
                           cassette_dir=root / "cassettes", record_mode=mode, run_id="bench")
    session = StratbenchSession(settings, registry, is_controller=False)
    session._loop = LOOP  # one loop for the whole bench, as in a pytest process (litellm's logging worker is bound to it)
    return session


LOOP = asyncio.new_event_loop()
MODEL = "openai/m"
"""The model the bench records and replays as (``--model``)."""


def finish(session: StratbenchSession) -> None:
    """Closes a session but keeps the shared loop open."""
    session._loop = None
    session.close()


def spec(n: int) -> MatchSpec:
    return MatchSpec("count", (AgentSpec("llm", MODEL, "direct"),), 0, 0, f"count-{n}", variant=str(n))


def record(root: Path, n: int) -> str:
    """Records the n-call match once against the loopback server; returns its node id."""
    node = f"suites/bench/test_count.py::test_count[{MODEL}+direct-{n}-s0]"
    with FakeLLMServer() as server:
        recorder = make_session(root, "once", server.api_base)
        recorder.play(spec(n), SuiteSpec("count"), node)
        finish(recorder)
    return node


def replay_once(root: Path, n: int, node: str) -> float:
    """Replays the match in a fresh session; returns seconds per call."""
    session = make_session(root, "none", None)
    start = time.perf_counter()
    played = session.play(spec(n), SuiteSpec("count"), node)
    elapsed = (time.perf_counter() - start) / n
    finish(session)
    assert played.record["usage"][0]["calls"] == n
    return elapsed


FLOOR_MESSAGES = [{"role": "system", "content": "You are an agent playing a game."},
                  {"role": "user", "content": "Turn 1 of 10.\nLegal actions: 1, 2, 3"}]
"""What both floors send: a prompt of the bench game's shape."""


def floor_once(loop: asyncio.AbstractEventLoop, n: int) -> float:
    """Makes n mocked litellm calls; returns seconds per call."""
    import litellm

    async def calls() -> None:
        for _ in range(n):
            await litellm.acompletion(model=MODEL, messages=FLOOR_MESSAGES, mock_response="Action: 1")

    start = time.perf_counter()
    loop.run_until_complete(calls())
    return (time.perf_counter() - start) / n


NETWORK_MOCK_BASE = "http://litellm-network-mock.invalid/v1"
"""The API base of the network floor's calls: its own cached client, built while ``litellm.network_mock`` was on."""


def network_floor_once(loop: asyncio.AbstractEventLoop, n: int) -> float:
    """Makes n litellm calls through its full request path to its own mock transport; returns seconds per call.

    ``litellm.network_mock`` swaps only the httpx transport for one that
    answers at once: the OpenAI SDK's request building, httpx and the parsing
    and pricing of a real response all run, as in a replay. litellm caches the
    client it builds, so the switch is on only while the first call builds it.
    """
    import litellm

    async def ask() -> None:
        await litellm.acompletion(model=MODEL, messages=FLOOR_MESSAGES, api_base=NETWORK_MOCK_BASE,
                                  api_key="sk-network-mock")

    async def calls() -> None:
        litellm.network_mock = True
        try:
            await ask()
        finally:
            litellm.network_mock = False
        for _ in range(n - 1):
            await ask()

    start = time.perf_counter()
    loop.run_until_complete(calls())
    return (time.perf_counter() - start) / n


def measure(root: Path, n: int, repeats: int) -> tuple[float, float, float]:
    """Returns the median replay, floor and network-floor seconds per call, interleaved repeat by repeat.

    Interleaving keeps a change in the machine's load from landing on one side only.
    """
    node = record(root, n)
    replays, floors, network = [], [], []
    for _ in range(repeats):
        replays.append(replay_once(root, n, node))
        floors.append(floor_once(LOOP, n))
        network.append(network_floor_once(LOOP, n))
    return statistics.median(replays), statistics.median(floors), statistics.median(network)


def main() -> None:
    global MODEL
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--model", default=MODEL)
    args = parser.parse_args()
    MODEL = args.model
    sizes = [int(s) for s in args.sizes.split(",")]
    floor_once(LOOP, 10)  # warm up imports and litellm's lazy setup
    network_floor_once(LOOP, 10)
    print(f"load: {os.getloadavg()[0]:.2f} (1-min average, {os.cpu_count()} cores)")
    print(f"{'calls/match':>11} {'replay ms/call':>15} {'floor ms/call':>14} {'ratio':>6} "
          f"{'network floor ms/call':>22} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            replay, floor, network = measure(Path(tmp), n, args.repeats)
            print(f"{n:>11} {replay * 1000:>15.2f} {floor * 1000:>14.2f} {replay / floor:>6.2f} "
                  f"{network * 1000:>22.2f} {replay / network:>6.2f}", flush=True)
    # litellm's background logging worker and the shared loop can crash CPython's final garbage
    # collection (SIGSEGV after all results are printed); nothing is left to clean up, so leave at once.
    os._exit(0)


if __name__ == "__main__":
    main()
