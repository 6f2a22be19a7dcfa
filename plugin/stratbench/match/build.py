"""Building a match: its game (with the reference profile's options) and one agent per player."""

from __future__ import annotations

import random
from typing import Any

from stratbench.core.agent import Agent, AgentContext
from stratbench.core.game import Game
from stratbench.core.obfuscation import Obfuscation
from stratbench.core.schedule import MatchSpec
from stratbench.core.transcript import Transcript
from stratbench.reference import ReferenceError, ReferenceProfile
from stratbench.registry import Registry
from stratbench.core.types import HarnessError
from stratbench.agents.llm import LLMAgent


def obfuscation_options(obfuscation: Obfuscation | None) -> dict[str, Any]:
    """What a record's ``game_options`` say of a memorisation probe's renaming: ``{"obfuscation": "mystery:7",
    "obfuscation_tag": "obf-mystery-s7"}`` (the tag carries the salt's digest, never the salt); ``{}`` for the
    original."""
    if obfuscation is None:
        return {}
    return {"obfuscation": obfuscation.spec(), "obfuscation_tag": obfuscation.tag}


def build_game(
    registry: Registry, profile: ReferenceProfile | None, name: str, variant: str | None, *, reference: bool,
    protocol_options: dict[str, Any] | None = None, obfuscation: Obfuscation | None = None,
    openings: str = "empty",
) -> tuple[Game, dict[str, Any]]:
    """Builds a match's game and returns it with the options it was built with.

    A reference match's game takes the reference profile's options for it; a
    match of a non-default protocol takes the protocol's game options too; a
    memorisation probe's game is built with ``obfuscation=`` its renaming (the
    options returned then name it: :func:`obfuscation_options`); a match
    from its seed's book position with ``openings="book"`` (named in the options).

    Raises:
        ReferenceError: when the profile's options cannot build the game.
        HarnessError: when the protocol's options (or the renaming) cannot build it.
    """
    options = dict(profile.game_options.get(name, {})) if reference and profile is not None else {}
    from_protocol = {**(protocol_options or {}), **({"openings": openings} if openings != "empty" else {})}
    renamed = {"obfuscation": obfuscation} if obfuscation is not None else {}
    if not options and not from_protocol and not renamed:
        return registry.game(name, variant), {}
    merged = {**options, **from_protocol}
    try:
        return registry.game(name, variant, **merged, **renamed), {**merged, **obfuscation_options(obfuscation)}
    except (TypeError, ValueError) as error:
        if from_protocol:
            raise HarnessError(f"game {name!r} cannot take its protocol's options {from_protocol}: {error}") from None
        if obfuscation is not None and not options:
            raise HarnessError(f"game {name!r} cannot be built renamed ({obfuscation.tag}): {error}") from None

        assert profile is not None
        raise ReferenceError(f"{profile.path}: games.{name}.options: {error}") from None


def build_agents(
    registry: Registry, client: Any, spec: MatchSpec, game: Game, transcript: Transcript, options: dict[str, Any]
) -> tuple[dict[int, Agent], dict[int, Any]]:
    """Builds one agent per player; returns the agents and the model sessions of the LLM players.

    Args:
        client: The run's LLM client (given only to the agents that call a model).
    """
    agents: dict[int, Agent] = {}
    sessions: dict[int, Any] = {}
    for side, players in enumerate(game.info.sides):
        agent_spec = spec.sides[side]
        for player in players:
            context = AgentContext(
                spec=agent_spec,
                game=game,
                player=player,
                side=side,
                rng=random.Random(f"{spec.seed}:{player}:{agent_spec.label}"),
                transcript=transcript,
                llm=client if agent_spec.uses_llm else None,
                options=options,
            )
            if agent_spec.uses_llm:
                name = agent_spec.scaffold or "direct"
                scaffold = registry.scaffold(name, **(options.get("scaffold_settings") or {}).get(name, {}))
                agent = LLMAgent(context, scaffold)
                sessions[player] = agent.session
            else:
                agent = registry.agent_factory(agent_spec.kind)(context)
            agents[player] = agent
    return agents, sessions
