"""The optional engine hooks the runner uses: ``State.fallback_action`` and ``Game.observe_negotiation``."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.messages import Negotiation, Outgoing
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, HarnessError, IllegalActionError, Observation, Rules


class EssayState(State):
    """One player writes two open-ended answers; an answer must start with ``ok``."""

    fallback: str | None = None

    def _current_players(self):
        return [0]

    def _legal_actions(self, player):
        return []

    def _open_ended(self, player):
        return {"essay": "Write something starting with ok."}

    def _apply(self, actions):
        pass

    def _is_terminal(self):
        return self.turn >= 2

    def _scores(self):
        return [1.0]

    def fallback_action(self, player, rng):
        if self.fallback is None:
            return super().fallback_action(player, rng)
        return Action("essay", f"{self.fallback} {rng.randrange(1000)}")


class EssayGame(Game):
    info = GameInfo("essay", 1, ((0,),), max_turns=3, score_range=(0.0, 1.0), score_sum=None)
    rules = Rules("Essay", "Write.")

    def __init__(self, fallback=None):
        self.fallback = fallback

    def new_initial_state(self, seed):
        state = EssayState(self)
        state.fallback = self.fallback
        return state

    def observe(self, state, player):
        return Observation("essay", player, "write", (), self.rules, open_ended=state.open_ended(player))

    def check_open_ended(self, state, player, action):
        if not action.response.startswith("ok"):
            raise IllegalActionError("an answer starts with ok")
        return action


class Garbage:
    """Always answers an unacceptable essay."""

    def __init__(self):
        self.calls = 0

    async def act(self, observation):
        self.calls += 1
        return Action("essay", "garbage")


def _play(game, rules, seed=0):
    transcript = Transcript()
    state = game.new_initial_state(seed)
    outcome = asyncio.run(run_match(game, state, {0: Garbage()}, rng=random.Random(seed), rules=rules,
                                    transcript=transcript))
    return outcome, transcript


def test_without_a_fallback_action_an_open_ended_decision_forfeits_even_under_random():
    outcome, transcript = _play(EssayGame(), MatchRules(illegal_tolerance=2, fallback="random"))
    assert outcome.forfeited_by == 0 and outcome.turns == 0
    assert outcome.illegal == {0: 2} and outcome.fallbacks == {0: 1}
    assert [e["policy"] for e in transcript.of_kind("fallback")] == ["forfeit"]


def test_the_state_fallback_action_is_played_checked_and_counted_like_a_random_fallback():
    outcome, transcript = _play(EssayGame("ok fallback"), MatchRules(illegal_tolerance=3, fallback="random"), seed=4)
    assert outcome.forfeited_by is None and outcome.turns == 2
    assert outcome.decisions == {0: 2} and outcome.illegal == {0: 6} and outcome.fallbacks == {0: 2}
    fallbacks = transcript.of_kind("fallback")
    assert [e["policy"] for e in fallbacks] == ["random", "random"]
    assert [e["action"] for e in fallbacks] == [a[0] for a in outcome.history]
    assert all(a[0].startswith("essay: ok fallback ") for a in outcome.history)
    again, _ = _play(EssayGame("ok fallback"), MatchRules(illegal_tolerance=3, fallback="random"), seed=4)
    assert again.history == outcome.history  # drawn from the match's seeded generator


def test_the_forfeit_fallback_never_asks_for_a_fallback_action():
    outcome, _ = _play(EssayGame("ok fallback"), MatchRules(illegal_tolerance=1, fallback="forfeit"))
    assert outcome.forfeited_by == 0 and outcome.fallbacks == {0: 1}


def test_a_fallback_action_the_game_rejects_is_a_harness_error():
    with pytest.raises(HarnessError, match="fallback action 'essay: bad"):
        _play(EssayGame("bad"), MatchRules(illegal_tolerance=1, fallback="random"))


class ChatState(State):
    def _current_players(self):
        return [0, 1]

    def _legal_actions(self, player):
        return ["done"]

    def _apply(self, actions):
        self.finished = True

    def _is_terminal(self):
        return getattr(self, "finished", False)

    def _scores(self):
        return [0.5, 0.5]

    def negotiation(self):
        return Negotiation("P1", (0, 1), rounds=2, max_messages=1, max_chars=50)


class ChatGame(Game):
    info = GameInfo("chat", 2, ((0,), (1,)), max_turns=2)
    rules = Rules("Chat", "Chat, then finish.")

    def new_initial_state(self, seed):
        return ChatState(self)

    def observe(self, state, player):
        return Observation("chat", player, "act now", ("done",), self.rules)


class OwnTalkGame(ChatGame):
    def observe_negotiation(self, state, player, turn):
        return Observation("chat", player, f"talk round {turn.round} of {turn.rounds} to {turn.recipients}",
                           (), self.rules)


class Talker:
    def __init__(self):
        self.seen = []

    async def negotiate(self, observation):
        self.seen.append(observation)
        return [Outgoing(f"hi from {observation.player} in round {observation.negotiation.round}")]

    async def act(self, observation):
        self.seen.append(observation)
        return Action("done")


def _talk(game):
    agents = {0: Talker(), 1: Talker()}
    asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0)))
    return agents[0].seen


def test_a_game_without_observe_negotiation_talks_over_its_ordinary_observation():
    first, second, act = _talk(ChatGame())
    assert first.text == second.text == act.text == "act now" and first.legal_actions == ("done",)
    assert [first.negotiation.round, second.negotiation.round] == [1, 2] and act.negotiation is None
    assert first.messages == () and [m["text"] for m in second.messages] == ["hi from 0 in round 1",
                                                                             "hi from 1 in round 1"]


def test_observe_negotiation_gets_the_turn_and_the_runner_still_attaches_turn_and_messages():
    first, second, act = _talk(OwnTalkGame())
    assert first.text == "talk round 1 of 2 to {1: 'player 1'}" and second.text.startswith("talk round 2 of 2")
    assert first.negotiation.round == 1 and second.negotiation.recipients == {1: "player 1"}
    assert len(second.messages) == 2 and act.text == "act now" and act.negotiation is None
