"""The match runner: observation → act → validate → apply, until the game ends.

The loop is game-agnostic. Players who move at the same time act
concurrently. An unreadable or illegal answer is fed back to the agent with
the reason, up to ``illegal_tolerance`` attempts per decision; after that the
suite's fallback applies (``"forfeit"``: the player's side loses; ``"random"``:
a random legal action is played, or, for a decision without a legal-action
list, the state's ``fallback_action``; the player forfeits when there is
none; ``"drop"``: the answer is dropped and the state's ``pass_action`` is
played, so the player does nothing and the game goes on). An answer the
output-token limit cut twice (:class:`~stratbench.core.types.TruncatedAnswer`)
is not an illegal move: the fallback applies at once, with the reason
``truncated``. Every fallback is counted in the outcome.

Every call into the game (its state, observations, legality, moves) is a
synchronous step handed to :func:`~stratbench.core.match_work.offload`: in a
session it runs in the match's worker thread, so an engine that never
returns cannot hold the event loop, and ``--match-timeout`` stops it.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, replace

from stratbench.core.agent import Agent
from stratbench.core.game import CHANCE, Game, State
from stratbench.core.match_work import offload
from stratbench.core.messages import Negotiation, NegotiationTurn, Outgoing
from stratbench.core.rejection import CUT_OFF, classify_rejection
from stratbench.core.traces import MatchOutcome
from stratbench.core.transcript import Transcript
from stratbench.core.types import (
    Action,
    ActionParseError,
    AgentForfeit,
    HarnessError,
    IllegalActionError,
    Observation,
    TruncatedAnswer,
)

FALLBACKS = ("forfeit", "random", "drop")


@dataclass(frozen=True)
class MatchRules:
    """How the runner treats bad answers.

    Attributes:
        illegal_tolerance: Attempts per decision before the fallback (SPIN-Bench: 10).
        fallback: ``"forfeit"``, ``"random"`` (GameBench plays a random legal action) or
            ``"drop"`` (the player does nothing: a Diplomacy power's units hold).
    """

    illegal_tolerance: int = 10
    fallback: str = "forfeit"

    def __post_init__(self) -> None:
        if self.illegal_tolerance < 1:
            raise ValueError(f"illegal_tolerance must be at least 1, got {self.illegal_tolerance}")
        if self.fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {self.fallback!r}")


async def run_match(
    game: Game,
    state: State,
    agents: dict[int, Agent],
    *,
    rng: random.Random,
    rules: MatchRules = MatchRules(),
    transcript: Transcript | None = None,
) -> MatchOutcome:
    """Plays ``state`` to the end with one agent per player.

    Args:
        game: The game (for observations and action canonicalisation).
        state: The start state; it is advanced in place.
        agents: The agent of every player.
        rng: The match's seeded generator (chance nodes, random fallback).
        rules: Retry and fallback policy.
        transcript: Where events are logged; a fresh one if None.

    Returns:
        The outcome. Agent exceptions other than parse/illegal errors propagate.
    """
    transcript = transcript if transcript is not None else Transcript()
    missing = set(range(game.info.num_players)) - set(agents)
    if missing:
        raise HarnessError(f"no agent for players {sorted(missing)}")
    start = time.perf_counter()
    stats = _Stats(game.info.num_players)
    turn, observations = await offload(_begin, game, state, transcript)
    while turn is not None:
        negotiation, players = turn
        if negotiation is not None:
            state.messages.held.append(negotiation.phase)
            await _negotiate(game, state, agents, negotiation, transcript)
            turn, observations = await offload(_upcoming, game, state)
            continue
        if players == [CHANCE]:
            outcomes = await offload(state.chance_outcomes)
            picked = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            transcript.add("chance", turn=state.turn, outcome=picked)
            turn, observations = await offload(_advance, game, state, {CHANCE: Action(picked)}, transcript)
            continue
        # One generator per player, drawn in player order, keeps fallbacks independent of timing.
        rngs = {p: random.Random(rng.getrandbits(64)) for p in players}
        results = await asyncio.gather(*(
            transcript.collect(_decide(game, state, p, agents[p], rngs[p], rules, transcript, stats, observations[p]))
            for p in players
        ))
        decided = []
        for action, events in results:  # players' events in player order, whatever the timing
            transcript.extend(events)
            decided.append(action)
        forfeits = [p for p, action in zip(players, decided) if action is None]
        if forfeits:
            await offload(state.forfeit, forfeits[0], stats.gave_up.get(forfeits[0]))
            break
        turn, observations = await offload(_advance, game, state, dict(zip(players, decided)), transcript)
    scores, terminal = await offload(_result, state)
    outcome = MatchOutcome(
        scores=scores,
        terminal=terminal,
        turns=state.turn,
        decisions=stats.decisions,
        illegal=stats.illegal,
        fallbacks=stats.fallbacks,
        forfeited_by=state.forfeited_by,
        history=list(state.history),
        duration_s=time.perf_counter() - start,
        messages=[m.to_dict() for m in state.messages.messages],
        format_errors=stats.format_errors,
        truncated=stats.truncated,
        rejected=stats.rejected,
    )
    transcript.add("end", scores=outcome.scores, terminal=outcome.terminal, turns=outcome.turns)
    return outcome


def _next_turn(game: Game, state: State) -> tuple[Negotiation | None, list[int]] | None:
    """Returns the negotiation to hold now (or None) and the players to move; None when the game is over.

    Raises:
        HarnessError: when the game runs past its ``max_turns``.
    """
    if state.is_terminal():
        return None
    if state.turn >= game.info.max_turns:
        raise HarnessError(f"{game.info.name} exceeded its max_turns={game.info.max_turns}")
    negotiation = state.negotiation()
    if negotiation is not None and negotiation.phase not in state.messages.held:
        return negotiation, []
    return None, state.current_players()


Upcoming = tuple[tuple[Negotiation | None, list[int]] | None, dict[int, Observation]]
"""What comes next (see :func:`_next_turn`) and, for a move, each mover's observation."""


def _upcoming(game: Game, state: State) -> Upcoming:
    """Returns what comes next and, when players move (no negotiation, no chance), each one's observation.

    The game is asked in the order the runner asked it one step at a time
    (the turn, then each mover's observation in player order); as one step, a
    decision costs the match's worker thread and the loop two hand-offs
    instead of four.
    """
    turn = _next_turn(game, state)
    if turn is None or turn[0] is not None or turn[1] == [CHANCE]:
        return turn, {}
    return turn, {player: _observe(game, state, player) for player in turn[1]}


def _begin(game: Game, state: State, transcript: Transcript) -> Upcoming:
    """Logs the start position; returns what comes next (:func:`_upcoming`)."""
    _log_board(game, state, transcript)
    return _upcoming(game, state)


def _advance(game: Game, state: State, joint: dict[int, Action], transcript: Transcript) -> Upcoming:
    """Applies a joint action and logs the position after it; returns what comes next (:func:`_upcoming`)."""
    _apply(game, state, joint, transcript)
    return _upcoming(game, state)


def _apply(game: Game, state: State, joint: dict[int, Action], transcript: Transcript) -> None:
    """Applies a joint action and logs the position after it."""
    state.apply(joint)
    _log_board(game, state, transcript)


def _result(state: State) -> tuple[list[float], str]:
    """Returns the final scores and how the game ended."""
    return state.scores(), state.terminal_reason()


def _log_board(game: Game, state: State, transcript: Transcript) -> None:
    """Logs the game's snapshot of the position (a ``board`` event) for the replay viewer."""
    board = game.snapshot(state)
    if board is not None:
        transcript.add("board", turn=state.turn, board=board)


class _Stats:
    def __init__(self, num_players: int) -> None:
        self.decisions = {p: 0 for p in range(num_players)}
        self.illegal = {p: 0 for p in range(num_players)}
        self.format_errors = {p: 0 for p in range(num_players)}
        self.fallbacks = {p: 0 for p in range(num_players)}
        self.truncated = {p: 0 for p in range(num_players)}
        self.rejected: dict[int, dict[str, int]] = {p: {} for p in range(num_players)}
        """Rejected answers by reason kind (:mod:`stratbench.core.rejection`), by player."""
        self.gave_up: dict[int, str] = {}
        """Why a player's agent gave up (:class:`AgentForfeit`: a person who left), by player."""


async def _decide(
    game: Game,
    state: State,
    player: int,
    agent: Agent,
    rng: random.Random,
    rules: MatchRules,
    transcript: Transcript,
    stats: _Stats,
    observation: Observation,
) -> Action | None:
    """Gets one legal action from ``agent`` for its ``observation``, or None when it forfeits."""
    transcript.add(
        "observation",
        turn=state.turn,
        player=player,
        text=observation.text,
        legal=list(observation.legal_actions),
        open_ended=dict(observation.open_ended),
        has_image=observation.image_png is not None,
    )
    stats.decisions[player] += 1
    current = observation
    why: dict[str, str] = {}
    for attempt in range(1, rules.illegal_tolerance + 1):
        chosen: Action | None = None
        try:
            chosen = await agent.act(current)
            action = await offload(_canonical, game, state, player, chosen)
        except AgentForfeit as error:  # the agent gave up (a person left): its side forfeits at once
            stats.fallbacks[player] += 1
            stats.gave_up[player] = str(error)
            transcript.add("fallback", turn=state.turn, player=player, policy="forfeit", reason=str(error),
                           fault=error.fault)
            return None
        except TruncatedAnswer:  # not an illegal move: no further attempt, the fallback decides
            stats.truncated[player] += 1
            _count_rejected(stats, player, CUT_OFF)
            why = {"reason": "truncated", "why": CUT_OFF}
            break
        except (ActionParseError, IllegalActionError) as error:
            stats.illegal[player] += 1
            stats.format_errors[player] += isinstance(error, ActionParseError)
            reason = str(error)
            answer = getattr(agent, "last_answer", None)
            kind = classify_rejection(error, observation, answer=answer, chosen=None if chosen is None else chosen.id,
                                      cut=bool(getattr(agent, "last_answer_cut", False)))
            _count_rejected(stats, player, kind)
            shown = answer if answer is not None else None if chosen is None else chosen.to_text()
            transcript.add("rejected", turn=state.turn, player=player, attempt=attempt, error=reason, why=kind,
                           **({} if shown is None else {"answer": shown[:_ANSWER_CHARS]}))
            current = observation.with_feedback(reason, attempt + 1)
            continue
        transcript.add("action", turn=state.turn, player=player, attempt=attempt, action=action.to_text())
        return action
    stats.fallbacks[player] += 1
    if rules.fallback == "drop":
        action = await offload(_pass_fallback, game, state, player)
        transcript.add("fallback", turn=state.turn, player=player, policy="drop", action=action.to_text(), **why)
        return action
    if rules.fallback == "random":
        action = await offload(_random_fallback, game, state, player, observation, rng)
        if action is not None:
            transcript.add("fallback", turn=state.turn, player=player, policy="random", action=action.to_text(),
                           **why)
            return action
    transcript.add("fallback", turn=state.turn, player=player, policy="forfeit", **why)
    return None


_ANSWER_CHARS = 600
"""The most of a rejected answer a ``rejected`` event keeps."""


def _count_rejected(stats: _Stats, player: int, kind: str) -> None:
    """Counts one rejected answer of ``player`` under its reason kind."""
    counts = stats.rejected[player]
    counts[kind] = counts.get(kind, 0) + 1


def _random_fallback(
    game: Game, state: State, player: int, observation: Observation, rng: random.Random
) -> Action | None:
    """Returns a random legal action, else the state's fallback action (checked), else None.

    A renamed variant's label (``--obfuscate``: the game's ``obfuscation`` is set) is read back as an answer is.
    """
    if observation.legal_actions:
        picked = Action(rng.choice(observation.legal_actions))
        return picked if getattr(game, "obfuscation", None) is None else _canonical(game, state, player, picked)
    action = state.fallback_action(player, rng)
    if action is None:
        return None
    try:
        return _canonical(game, state, player, action)
    except (ActionParseError, IllegalActionError) as error:
        raise HarnessError(
            f"{game.info.name}: the fallback action {action.to_text()!r} was rejected: {error}"
        ) from error


def _pass_fallback(game: Game, state: State, player: int) -> Action:
    """Returns the state's pass action for ``player``, checked like an answer."""
    action = state.pass_action(player)
    if action is None:
        raise HarnessError(f"{game.info.name}: the drop fallback needs State.pass_action, which this game lacks")
    try:
        return _canonical(game, state, player, action)
    except (ActionParseError, IllegalActionError) as error:
        raise HarnessError(
            f"{game.info.name}: the pass action {action.to_text()!r} was rejected: {error}"
        ) from error


def _observe(game: Game, state: State, player: int, negotiation: NegotiationTurn | None = None) -> Observation:
    """Returns the game's observation (its negotiation view when talking) with the player's messages attached."""
    if negotiation is None:
        observation = game.observe(state, player)
    else:
        observation = game.observe_negotiation(state, player, negotiation)
    visible = tuple(m.to_dict() for m in state.messages.visible_to(player))
    if visible or negotiation is not None:
        observation = replace(observation, messages=visible, negotiation=negotiation)
    return observation


async def _negotiate(
    game: Game, state: State, agents: dict[int, Agent], negotiation: Negotiation, transcript: Transcript
) -> None:
    """Holds a negotiation: each round, every participant may send messages concurrently.

    Agents without a ``negotiate`` method stay silent. A message that breaks
    the negotiation's limits is rejected and logged, never delivered.
    """
    roles = {p: game.role(p) for p in negotiation.participants}
    for round_ in range(1, negotiation.rounds + 1):
        async def talk(player: int) -> tuple[int, list[Outgoing]]:
            negotiate = getattr(agents[player], "negotiate", None)
            if negotiate is None:
                return player, []
            turn = NegotiationTurn(
                phase=negotiation.phase,
                round=round_,
                rounds=negotiation.rounds,
                max_messages=negotiation.max_messages,
                max_chars=negotiation.max_chars,
                recipients={p: r for p, r in roles.items() if p != player},
                allow_private=negotiation.allow_private,
                allow_public=negotiation.allow_public,
            )
            observation = await offload(_observe, game, state, player, turn)
            return player, list(await negotiate(observation))

        sent = await asyncio.gather(*(transcript.collect(talk(p)) for p in negotiation.participants))
        for (player, outgoing), events in sent:
            transcript.extend(events)
            for index, message in enumerate(outgoing):
                reason = (
                    f"only {negotiation.max_messages} messages per round"
                    if index >= negotiation.max_messages
                    else state.messages.check(negotiation, player, message)
                )
                if reason is not None:
                    transcript.add("message_rejected", phase=negotiation.phase, round=round_, sender=player,
                                   recipients=list(message.to), text=message.text, error=reason)
                    continue
                delivered = state.messages.post(player, message, negotiation.phase, round_)
                transcript.add("message", **delivered.to_dict())


def _canonical(game: Game, state: State, player: int, action: Action) -> Action:
    """Checks ``action`` and returns it in the game's canonical form."""
    if action.id in state.open_ended(player):
        if not action.response:
            raise ActionParseError(f"{action.id} is open-ended: give your answer after the action id")
        return game.check_open_ended(state, player, action)
    canonical = game.canonical_action(state, player, action.id)
    if canonical is None:
        legal = ", ".join(state.legal_actions(player))
        raise IllegalActionError(f"{action.id!r} is not a legal action. Legal actions: {legal}")
    return Action(canonical)
