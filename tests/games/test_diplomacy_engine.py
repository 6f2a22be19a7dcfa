"""The Diplomacy wrapper: variants, order-set parsing and validation, legality, replay, a golden trace."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")

from stratbench.games.spin.agents.diplomacy_baselines import HoldAgent, RandomOrdersAgent  # noqa: E402
from stratbench.core.agent import AgentContext, AgentSpec  # noqa: E402
from stratbench.core.messages import NegotiationTurn, Outgoing  # noqa: E402
from stratbench.core.runner import run_match  # noqa: E402
from stratbench.core.transcript import Transcript  # noqa: E402
from stratbench.core.types import Action, ActionParseError, IllegalActionError  # noqa: E402
from stratbench.games.spin import diplomacy  # noqa: E402
from stratbench.games.spin.diplomacy import (  # noqa: E402
    POWERS,
    Diplomacy,
    DiplomacyNoPress,
    extract_orders,
    parse_variant,
    validate_orders,
    variant_name,
)

FRANCE = POWERS.index("FRANCE")


def _orders(power, orders):
    return Action("orders", json.dumps({"orders": {power: orders}}))


def _apply(state, given):
    """Applies ``given`` orders ({power: [orders]}); every other power to act sends none."""
    joint = {p: _orders(POWERS[p], []) for p in state.current_players()}
    joint.update({POWERS.index(p): _orders(p, o) for p, o in given.items()})
    state.apply(joint)


def _play(game, seed, make):
    agents = {}
    for player in range(7):
        context = AgentContext(AgentSpec("x"), game, player, player, random.Random(f"{seed}:{player}"), Transcript())
        agents[player] = make(player, context)
    state = game.new_initial_state(seed)
    outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(seed)))
    return state, outcome


def test_variants_name_the_last_year_and_the_rounds(monkeypatch):
    assert parse_variant("to1905") == (1905, 3)
    assert parse_variant("to1903-r2") == (1903, 2)
    assert parse_variant(None) == (1905, 3)
    assert variant_name(1905, 3) == "to1905" and variant_name(1902, 1) == "to1902-r1"
    for bad in ("1905", "to1899", "to1905-r0", "through-1905"):
        with pytest.raises(ValueError):
            parse_variant(bad)
    monkeypatch.setenv(diplomacy.END_YEAR_ENV, "1902")
    monkeypatch.setenv(diplomacy.ROUNDS_ENV, "2")
    assert [(v.name, v.skip) for v in diplomacy.variants({})] == [("to1902-r2", None)]
    monkeypatch.setattr(diplomacy, "engine_available", lambda: False)
    assert diplomacy.variants({})[0].skip == diplomacy.INSTALL_HINT


def test_info_and_roles():
    game = Diplomacy("to1902")
    assert game.info.name == "diplomacy" and DiplomacyNoPress().info.name == "diplomacy-nopress"
    assert game.info.sides == tuple((i,) for i in range(7)) and game.info.simultaneous
    assert [game.role(p) for p in range(7)] == list(POWERS)
    assert game.info.max_turns == 15


def test_validate_orders_keeps_possible_orders_and_says_why_others_are_dropped():
    possible = {"PAR": ["A PAR - BUR", "A PAR H"], "MAR": ["A MAR - SPA", "A MAR H"]}
    kept, dropped = validate_orders(["a par-bur", "A PAR H", "A MAR - MUN", "A MAR H"], possible, "M", 0)
    assert kept == ["A PAR - BUR", "A MAR H"]
    assert dropped == ["A PAR H (a second order for PAR)", "A MAR - MUN (not a possible order)"]
    builds = {"PAR": ["A PAR B", "WAIVE"], "BRE": ["A BRE B", "F BRE B", "WAIVE"]}
    kept, dropped = validate_orders(["F BRE B", "WAIVE", "A PAR B"], builds, "A", 2)
    assert kept == ["F BRE B", "WAIVE"] and dropped == ["A PAR B (more than 2 adjustments allowed)"]


def test_extract_orders_reads_spin_bench_json_and_explains_failures():
    reply = 'Reasoning...\n```json\n{"reason": "x", "orders": {"france": ["A PAR H", 3]}}\n```'
    assert extract_orders(reply, "FRANCE") == (["A PAR H"], ["3 (not an order string)"])
    assert extract_orders('{"orders": ["A PAR H"]}', "FRANCE") == (["A PAR H"], [])
    # SPIN-Bench's own template misses a comma after attack_mask: the orders are still read.
    broken = '{"attack_mask": {"FRANCE": [0]}\n "orders": {"FRANCE": ["A MAR H"]}}'
    assert extract_orders(broken, "FRANCE") == (["A MAR H"], [])
    with pytest.raises(IllegalActionError, match="no entry for FRANCE"):
        extract_orders('{"orders": {"GERMANY": ["A MUN H"]}}', "FRANCE")
    with pytest.raises(ActionParseError, match='"orders"'):
        extract_orders("I move to Burgundy.", "FRANCE")


def test_a_partly_invalid_order_set_keeps_the_valid_orders_and_the_rest_hold():
    game = Diplomacy("to1901")
    state = game.new_initial_state(0)
    action = game.check_open_ended(state, FRANCE, _orders("FRANCE", ["A PAR - MUN", "A MAR - SPA", "banana"]))
    assert json.loads(action.response) == {
        "orders": ["A MAR - SPA"],
        "dropped": ["A PAR - MUN (not a possible order)", "banana (not a possible order)"],
    }
    joint = {p: _orders(POWERS[p], []) for p in range(7)}
    joint[FRANCE] = action
    state.apply(joint)
    units = state.engine.get_units("FRANCE")
    assert "A PAR" in units and "A SPA" in units
    assert state.phase_log[0]["dropped"]["FRANCE"][0].startswith("A PAR - MUN")


def test_an_unreadable_order_set_is_rejected_by_check_but_holds_when_applied_directly():
    game = Diplomacy("to1901")
    state = game.new_initial_state(0)
    with pytest.raises(ActionParseError):
        game.check_open_ended(state, FRANCE, Action("orders", "pass"))
    state.apply({p: Action("orders", "pass") for p in range(7)})
    assert state.phase == "F1901M"
    assert sorted(state.engine.get_units("FRANCE")) == ["A MAR", "A PAR", "F BRE"]


def test_golden_1901():
    game = Diplomacy("to1901")
    state = game.new_initial_state(0)
    assert state.phase == "S1901M" and state.current_players() == list(range(7))
    _apply(state, {"FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "GERMANY": ["A MUN - BUR"],
                   "ENGLAND": ["F LON - NTH"]})
    results = state.phase_log[-1]["results"]
    assert results["A PAR"] == ["bounce"] and results["A MUN"] == ["bounce"]
    assert results["A MAR"] == [] and results["F BRE"] == [] and results["F LON"] == []
    assert state.phase == "F1901M"
    _apply(state, {"FRANCE": ["F MAO - POR", "A SPA H", "A PAR - BUR"]})
    assert state.phase == "W1901A" and state.current_players() == [FRANCE]
    assert state.supply_centers()["FRANCE"] == 5 and state.build_count("FRANCE") == 2
    _apply(state, {"FRANCE": ["A MAR B", "F BRE B", "A PAR B"]})
    assert state.phase_log[-1]["dropped"]["FRANCE"] == ["A PAR B (more than 2 adjustments allowed)"]
    assert sorted(state.engine.get_units("FRANCE")) == ["A BUR", "A MAR", "A SPA", "F BRE", "F POR"]
    assert state.is_terminal() and state.terminal_reason() == "year limit: the game ended after 1901"
    assert state.scores() == [3.0, 3.0, 5.0, 3.0, 3.0, 4.0, 3.0]
    assert state.current_players() == [] and state.open_ended(FRANCE) == {}


def test_random_games_apply_only_possible_orders_and_replay_from_a_seed():
    game = Diplomacy("to1902")

    class Sloppy(RandomOrdersAgent):
        async def act(self, observation):
            answer = json.loads((await super().act(observation)).response)
            answer["orders"][observation.role].append("A XXX - YYY")
            return Action("orders", json.dumps(answer))

    seen = []
    original = diplomacy.DiplomacyState._apply

    def spy(state, actions):
        seen.append({POWERS[p]: {o for opts in state.possible_orders(POWERS[p]).values() for o in opts}
                     for p in actions})
        original(state, actions)

    diplomacy.DiplomacyState._apply = spy
    try:
        state, outcome = _play(game, 3, lambda p, c: Sloppy(c))
    finally:
        diplomacy.DiplomacyState._apply = original
    assert outcome.illegal == dict.fromkeys(range(7), 0)
    for entry, possible in zip(state.phase_log, seen):
        for power, orders in entry["orders"].items():
            assert set(orders) <= possible[power] | {"WAIVE"}
        assert all(any("A XXX - YYY" in d for d in dropped) for dropped in entry["dropped"].values())
    again, replayed = _play(game, 3, lambda p, c: Sloppy(c))
    assert replayed.history == outcome.history and again.phase_log == state.phase_log
    _, other = _play(game, 4, lambda p, c: Sloppy(c))
    assert other.history != outcome.history
    assert all(0 <= s <= 34 for s in outcome.scores) and state.is_terminal()


def test_hold_powers_keep_their_units_in_place():
    state, outcome = _play(DiplomacyNoPress("to1901"), 0, lambda p, c: HoldAgent(c))
    assert outcome.scores == [3.0, 3.0, 3.0, 3.0, 3.0, 4.0, 3.0]
    assert all(o.endswith(" H") for e in state.phase_log for orders in e["orders"].values() for o in orders)


def test_negotiation_before_movement_phases_only_with_press():
    assert DiplomacyNoPress("to1901").new_initial_state(0).negotiation() is None
    game = Diplomacy("to1901-r2")
    state = game.new_initial_state(0)
    negotiation = state.negotiation()
    assert negotiation.phase == "S1901M" and negotiation.rounds == 2 and negotiation.participants == tuple(range(7))
    assert state.negotiation() == negotiation  # asking has no side effects

    def turn(round_):
        return NegotiationTurn("S1901M", round_, 2, 7, diplomacy.MAX_CHARS,
                               {p: POWERS[p] for p in range(7) if p != FRANCE})

    first = game.observe_negotiation(state, FRANCE, turn(1))
    assert first.asking.prompt.startswith("It is now round 1 of the negotiation phase.") and first.open_ended == {}
    state.messages.post(0, Outgoing("Austria to France only", (FRANCE,)), "S1901M", 1)
    state.messages.post(1, Outgoing("England to Germany only", (3,)), "S1901M", 1)
    state.messages.post(3, Outgoing("Germany to everyone", ()), "S1901M", 1)
    second = game.observe_negotiation(state, FRANCE, turn(2))
    assert second.asking.prompt.startswith("It is now round 2 of the negotiation phase.")
    assert "AUSTRIA to FRANCE: Austria to France only" in second.asking.prompt
    assert "GERMANY to all players: Germany to everyone" in second.asking.prompt
    assert "England to Germany only" not in second.asking.prompt
    assert game.observe_negotiation(state, FRANCE, turn(2)).asking.prompt == second.asking.prompt  # observing is pure
    orders = game.observe(state, FRANCE)
    assert orders.asking.prompt.startswith("Now it's your turn to issue orders, and you are playing as ['FRANCE'].")
    assert "AUSTRIA to FRANCE: Austria to France only" in orders.asking.prompt
    assert "England to Germany only" not in orders.asking.prompt
    assert "<possible_orders>" in orders.asking.prompt and "'A PAR - BUR'" in orders.asking.prompt
    assert orders.open_ended == {"orders": diplomacy.ORDERS_PROMPT.replace("<YOUR POWER>", "FRANCE")}


def test_retreat_and_winter_prompts():
    game = Diplomacy("to1901")
    state = game.new_initial_state(0)
    germany = POWERS.index("GERMANY")
    _apply(state, {"GERMANY": ["A MUN - BUR"], "FRANCE": ["F BRE - MAO"]})
    _apply(state, {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F MAO - POR"], "GERMANY": ["A BUR H"]})
    assert state.phase == "F1901R" and state.current_players() == [germany]
    assert state.phase_log[-1]["results"]["A BUR"] == ["dislodged"]
    retreat = game.observe(state, germany)
    assert retreat.asking.prompt.startswith("Now it's the retreat phase, and you are playing ['GERMANY'].")
    assert "'A BUR R MUN'" in retreat.asking.prompt and "'A BUR D'" in retreat.asking.prompt
    assert retreat.data["possible_orders"]["BUR"] == sorted(retreat.data["possible_orders"]["BUR"])
    _apply(state, {"GERMANY": ["A BUR R MUN"]})
    assert state.phase == "W1901A" and "A MUN" in state.engine.get_units("GERMANY")
    winter = game.observe(state, FRANCE)
    assert winter.asking.prompt.startswith("Now it's winter adjustment phase, and you are playing ['FRANCE'].")
    assert "FRANCE: 1 builds allowed. Homes available for builds: BRE" in winter.asking.prompt
    assert winter.asking.prompt.rstrip().endswith("(build more and more supply centers) to win.")


def test_clone_is_independent():
    game = Diplomacy("to1901")
    state = game.new_initial_state(0)
    copy = state.clone()
    _apply(state, {"FRANCE": ["A PAR - BUR"]})
    assert copy.phase == "S1901M" and state.phase == "F1901M" and copy.game is state.game


def test_unreadable_order_sets_are_retried_then_forfeit():
    from stratbench.core.runner import MatchRules

    class Mute:
        async def act(self, observation):
            return Action("orders", "I would rather not say.")

    game = Diplomacy("to1901")
    agents = {p: HoldAgent(AgentContext(AgentSpec("hold"), game, p, p, random.Random(p), Transcript()))
              for p in range(7)}
    agents[FRANCE] = Mute()
    outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0),
                                    rules=MatchRules(illegal_tolerance=3, fallback="forfeit")))
    assert outcome.illegal[FRANCE] == 3 and outcome.fallbacks[FRANCE] == 1 and outcome.forfeited_by == FRANCE
    # France gets nothing; the others keep their real supply centres (Russia starts with 4), not 34.
    assert outcome.scores == [3.0, 3.0, 0.0, 3.0, 3.0, 4.0, 3.0] and outcome.turns == 0


def test_the_drop_fallback_holds_a_mute_power_and_the_game_goes_on_to_the_end_year():
    from stratbench.core.runner import MatchRules

    class Mute:
        async def act(self, observation):
            return Action("orders", "I would rather not say.")

    game = Diplomacy("to1903-r1")
    agents = {p: RandomOrdersAgent(AgentContext(AgentSpec("random-orders"), game, p, p, random.Random(p),
                                                Transcript()))
              for p in range(7)}
    agents[FRANCE] = Mute()
    state = game.new_initial_state(0)
    transcript = Transcript()
    outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(0), transcript=transcript,
                                    rules=MatchRules(illegal_tolerance=2, fallback="drop")))
    assert outcome.forfeited_by is None and outcome.terminal == "year limit: the game ended after 1903"
    assert state.phase == "S1904M" and {e["phase"][1:5] for e in state.phase_log} == {"1901", "1902", "1903"}
    # Every order set France owed was dropped after its two attempts, and counted.
    france_phases = [e for e in state.phase_log if "FRANCE" in e["dropped"]]
    assert len(france_phases) == outcome.decisions[FRANCE] == outcome.fallbacks[FRANCE] >= 6
    assert outcome.illegal[FRANCE] == 2 * outcome.decisions[FRANCE]
    assert all(e["orders"]["FRANCE"] == [] and e["dropped"]["FRANCE"] == [diplomacy.DROPPED_ORDER_SET]
               for e in france_phases)
    assert {e["policy"] for e in transcript.of_kind("fallback")} == {"drop"}
    # Its units never moved and it never built: what it has is a subset of its start.
    assert all(set(e["units"]["FRANCE"]) <= {"A MAR", "A PAR", "F BRE"} for e in state.phase_log)
    assert set(state.engine.powers["FRANCE"].centers) <= {"BRE", "MAR", "PAR"}
    # Scores are the real supply-centre counts: at most 34 in all, below 18 each without a solo victory.
    assert outcome.scores == [float(n) for n in state.supply_centers().values()]
    assert sum(outcome.scores) <= 34 and all(0 <= s < 18 for s in outcome.scores)
    assert outcome.scores[FRANCE] <= 3
    from stratbench.games.spin.metrics.diplomacy import diplomacy_metrics
    metrics = diplomacy_metrics(game, outcome, 0)
    assert metrics[FRANCE]["order_sets_dropped"] == outcome.fallbacks[FRANCE]
    assert metrics[FRANCE]["orders_dropped"] == 0
    assert all(metrics[p]["order_sets_dropped"] == 0 for p in range(7) if p != FRANCE)


def test_the_random_fallback_plays_random_possible_orders_for_an_agent_that_answers_garbage():
    from stratbench.core.runner import MatchRules

    class Garbage:
        async def act(self, observation):
            return Action("orders", "no orders from me, just prose")

    def play():
        game = DiplomacyNoPress("to1901")
        agents = {p: HoldAgent(AgentContext(AgentSpec("hold"), game, p, p, random.Random(p), Transcript()))
                  for p in range(7)}
        agents[FRANCE] = Garbage()
        transcript = Transcript()
        state = game.new_initial_state(0)
        outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(5), transcript=transcript,
                                        rules=MatchRules(illegal_tolerance=2, fallback="random")))
        return state, outcome, transcript

    state, outcome, transcript = play()
    assert outcome.forfeited_by is None and outcome.terminal == "year limit: the game ended after 1901"
    assert outcome.decisions[FRANCE] >= 2 and outcome.fallbacks[FRANCE] == outcome.decisions[FRANCE]
    assert outcome.illegal[FRANCE] == 2 * outcome.decisions[FRANCE]
    fallbacks = [e for e in transcript.of_kind("fallback") if e["player"] == FRANCE]
    assert len(fallbacks) == outcome.decisions[FRANCE] and {e["policy"] for e in fallbacks} == {"random"}
    movement = [e for e in state.phase_log if e["type"] == "M"]
    assert all(len(e["orders"]["FRANCE"]) == 3 and not e["dropped"].get("FRANCE") for e in movement)
    assert any(not o.endswith(" H") for e in movement for o in e["orders"]["FRANCE"])  # not merely holds
    assert play()[1].history == outcome.history  # seeded by the match


def test_end_year_shortens_a_game_within_its_variant():
    game = DiplomacyNoPress("to1905", end_year=1901)
    assert game.end_year == 1901 and game.info.max_turns == 10
    state, outcome = _play(game, 3, lambda player, context: RandomOrdersAgent(context))
    assert state.is_terminal() and state.phase.startswith(("S1902", "COMPLETED"))
    assert all(0 <= score <= 34 for score in outcome.scores) and sum(outcome.scores) <= 34
    for bad in (1900, 1906, "1901"):
        with pytest.raises(ValueError, match="end_year must be a year from 1901 to 1905"):
            DiplomacyNoPress("to1905", end_year=bad)
