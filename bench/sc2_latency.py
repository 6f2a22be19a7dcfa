"""LLM-PySC2 decision latency with 1, 4 and 16 agents, and observation-to-text time.

Each agent commands one Protoss unit type of a mock skirmish
(:mod:`stratbench.games.sc2.mock_battle`, pysc2's ``SC2TestEnv``) and asks a
loopback model (``stratbench.testing.fake_llm``) that answers after a fixed
delay, through stratbench's LLM client and litellm, exactly as a match does.
One decision = every agent's text observation, all queries concurrently
(:mod:`stratbench.games.sc2.multi_agent`), then the game steps. The decision
latency is the wall time from the first query to the last reply; the paper
claims it stays flat as agents are added. The client's per-model concurrency
cap (``--max-concurrency``, default 64) is measured too: with 16 agents and a
cap of 8 the queries go in two waves.

Observation-to-text: the time to build one agent's text observation from a
pysc2 observation (unit table, teams, sections), per agent and per decision.

Usage:
    python bench/sc2_latency.py [--latency 0.2] [--decisions 5] [--agents 1,4,16] [--caps 32,8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from dataclasses import replace

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from stratbench.games.sc2.config import AgentConfig, Layout, TeamConfig
from stratbench.games.sc2.mock_battle import make_env_factory, skirmish
from stratbench.games.sc2.multi_agent import LockStepEpisode
from stratbench.games.sc2.prompts import system_prompt
from stratbench.llm.client import LLMClient
from stratbench.testing.fake_llm import FakeLLMServer

UNIT_TYPES = ("Zealot", "Stalker", "Sentry", "Adept", "HighTemplar", "DarkTemplar", "Archon", "Immortal", "Colossus",
              "Disruptor", "Observer", "WarpPrism", "Phoenix", "VoidRay", "Oracle", "Carrier")


def responder(body: dict) -> str:
    """Attacks the first enemy the observation lists with the agent's team."""
    text = body["messages"][-1]["content"]
    team = text.split("Team ", 1)[1].split(" Info:", 1)[0] if "Team " in text else ""
    tag = text.split("Nearby Enemy Units:", 1)[-1].split("Tag: ", 1)[-1].split()[0] if "Nearby Enemy" in text else ""
    return f"Analysis:\n  Attack.\nActions:\n  Team {team}:\n    <Attack_Unit({tag})>\n" if tag else "Actions:\n"


def episode_for(agents: int) -> LockStepEpisode:
    """An episode with ``agents`` agents, each commanding one unit of its own type, against 8 Roaches."""
    types = UNIT_TYPES[:agents]
    layout = Layout(tuple(
        AgentConfig(f"CombatGroup{i}", f"Protoss commander of the {unit}s.",
                    (TeamConfig(f"{unit}-1", (unit,), actions=("Attack_Unit", "Move_Screen")),))
        for i, unit in enumerate(types)
    ))
    units = skirmish(tuple((f"Protoss.{unit}", 1) for unit in types), (("Zerg.Roach", 8),))
    # Every unit outlives the measured decisions, so every agent decides at every one of them (the
    # selection steps of each decision advance the game, and the mock's Roaches would otherwise kill
    # the low-tag units before the first decision).
    units = tuple(replace(unit, health=10**6, health_max=10**6) for unit in units)
    return LockStepEpisode(make_env_factory(units, max_steps=10_000), layout)


async def measure(agents: int, decisions: int, api_base: str, concurrency: int) -> dict:
    """Plays ``decisions`` decisions; returns decision latencies and text times."""
    client = LLMClient(api_base=api_base, allow_placeholder_key=True, max_concurrency=concurrency, max_attempts=1)
    episode = episode_for(agents)
    episode.start()
    latencies, text_times = [], []
    try:
        for _ in range(decisions):
            names = episode.acting()
            if len(names) != agents:
                raise RuntimeError(f"{len(names)} of {agents} agents decide: the measurement would not be of {agents}")
            started = time.perf_counter()
            texts = {name: episode.text(name) for name in names}
            text_times.append((time.perf_counter() - started) / len(names))

            async def ask(name: str, text: str) -> str:
                agent = episode.layout.agent(name)
                messages = [{"role": "system", "content": system_prompt(agent.describe, communication=False)},
                            {"role": "user", "content": text}]
                completion = await client.complete("openai/m", messages, temperature=0.1)
                return completion.text

            queried = time.perf_counter()
            replies = await asyncio.gather(*(ask(name, texts[name]) for name in names))
            latencies.append(time.perf_counter() - queried)
            episode.submit(dict(zip(names, replies)))
            if episode.finished:
                break
    finally:
        episode.close()
    return {"agents": agents, "latency": latencies, "text": text_times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="The loopback model's fixed delay per answer (s)")
    parser.add_argument("--decisions", type=int, default=5)
    parser.add_argument("--agents", default="1,4,16")
    parser.add_argument("--caps", default="32,8", help="The LLM client's per-model concurrency caps to measure")
    args = parser.parse_args()
    counts = [int(n) for n in args.agents.split(",")]
    print(f"loopback model delay {args.latency:.3f} s; {args.decisions} decisions per row; median over decisions")
    print(f"{'agents':>6} {'cap':>4} {'decision latency s':>19} {'overhead s':>11} {'text ms/agent':>14} "
          f"{'text ms/decision':>17}")
    for concurrency in [int(c) for c in args.caps.split(",")]:
        for agents in counts:
            # A fresh server per row: connections kept alive by an earlier row must not slow this one.
            with FakeLLMServer(responder=responder, delay_s=args.latency) as server:
                asyncio.run(measure(1, 1, server.api_base, concurrency))  # warm litellm's import and client
                row = asyncio.run(measure(agents, args.decisions, server.api_base, concurrency))
            latency = statistics.median(row["latency"])
            text_ms = 1000 * statistics.median(row["text"])
            print(f"{agents:>6} {concurrency:>4} {latency:>19.3f} {latency - args.latency:>11.3f} "
                  f"{text_ms:>14.2f} {text_ms * agents:>17.2f}")


if __name__ == "__main__":
    main()
