"""Diplomacy's paper protocol in the engine: Table 6 groups, win thresholds, readers, physically possible scores."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("diplomacy", reason="Diplomacy needs the engine: pip install 'pytest-stratbench[diplomacy]'")

from stratbench.core.messages import Negotiation, NegotiationTurn  # noqa: E402
from stratbench.core.types import Action, ActionParseError, IllegalActionError  # noqa: E402
from stratbench.games.spin.diplomacy import POWERS, Diplomacy, DiplomacyNoPress, groups_from_history  # noqa: E402
from stratbench.games.spin.metrics.diplomacy import diplomacy_metrics, replay  # noqa: E402
from stratbench.games.spin.paper_protocols.diplomacy import BASIC_SKILL, PAPER_SEATINGS, read_messages, read_orders  # noqa: E402

RUSSIA, TURKEY = POWERS.index("RUSSIA"), POWERS.index("TURKEY")


def _seated(name, game=None):
    game = game or Diplomacy(protocol="paper")
    state = game.new_initial_state(0)
    state.seat({**PAPER_SEATINGS, **BASIC_SKILL}[name])
    return game, state


def test_table_6_groups_and_thresholds():
    expected = {
        "2-agents": (((0, 1, 2, 3), (4, 5, 6)), 25),
        "3-agents": (((0, 1, 2), (3, 4), (5, 6)), 20),
        "4-agents": (((0, 1), (2, 3), (4, 6), (5,)), 18),
        "5-agents": (((0, 1), (2,), (3,), (4, 6), (5,)), 18),
        "basic-skill": (tuple((i,) for i in range(7)), 18),
    }
    for name, (groups, threshold) in expected.items():
        _, state = _seated(name)
        assert (state.groups, state.threshold) == (groups, threshold), name
    assert Diplomacy(protocol="paper").end_year == 1920 and Diplomacy().end_year == 1905
    with pytest.raises(ValueError, match="unknown Diplomacy protocol 'papers'"):
        Diplomacy(protocol="papers")


def test_the_default_protocol_ignores_the_seating():
    state = Diplomacy().new_initial_state(0)
    state.seat(PAPER_SEATINGS["2-agents"])
    assert state.groups == tuple((i,) for i in range(7)) and state.current_players() == list(range(7))


@pytest.mark.parametrize(("seating", "centers", "ends"), [
    ("3-agents", (10, 10), True), ("3-agents", (10, 9), False), ("2-agents", (12, 12), False),
])
def test_a_paper_game_ends_when_an_agent_reaches_its_threshold_over_its_powers(seating, centers, ends):
    game, state = _seated(seating)
    pool = [c for p in POWERS if p not in ("RUSSIA", "TURKEY") for c in state.engine.powers[p].centers]
    pool += ["BUL", "GRE", "RUM", "SER", "NWY", "SWE", "DEN", "HOL", "BEL", "TUN", "POR", "SPA"]
    russia = sorted(state.engine.powers["RUSSIA"].centers) + pool[: centers[0] - 4]
    turkey = sorted(state.engine.powers["TURKEY"].centers) + pool[centers[0] - 4: centers[0] - 4 + centers[1] - 3]
    state.engine.set_centers("RUSSIA", russia)
    state.engine.set_centers("TURKEY", turkey)
    state._cache.clear()
    assert state.is_terminal() is ends
    scores = state.scores()
    assert scores[RUSSIA] + scores[TURKEY] == sum(centers) and sum(scores) <= 34
    if ends:
        assert state.terminal_reason() == "threshold reached: RUSSIA+TURKEY hold 20 supply centers (>= 20)"


def test_the_same_summed_centres_do_not_end_a_default_game():
    state = Diplomacy().new_initial_state(0)
    state.engine.set_centers("RUSSIA", ["MOS", "SEV", "STP", "WAR", "RUM", "BUL", "SER", "GRE", "BUD", "VIE"])
    state.engine.set_centers("TURKEY", ["ANK", "CON", "SMY", "TRI", "VEN", "ROM", "NAP", "TUN", "MUN", "BER"])
    assert not state.is_terminal()


def test_one_agent_orders_for_all_its_powers_and_replays_from_history():
    game, state = _seated("3-agents")
    assert state.current_players() == [0, 3, 5]
    observation = game.observe(state, RUSSIA)
    assert observation.data["powers"] == ["RUSSIA", "TURKEY"] and observation.asking.conversation == "S1901M"
    assert observation.asking.prompt.startswith("Now it's your turn to issue orders, and you are playing as "
                                         "['RUSSIA', 'TURKEY'].\n")
    reply = json.dumps({"orders": {"RUSSIA": ["A MOS - UKR", "A PAR - BUR"], "TURKEY": ["F ANK - BLA"]}})
    action = game.check_open_ended(state, RUSSIA, read_orders(reply, observation))
    decided = json.loads(action.response)
    assert decided["orders"] == {"RUSSIA": ["A MOS - UKR"], "TURKEY": ["F ANK - BLA"]}
    assert decided["dropped"] == {"RUSSIA": ["A PAR - BUR (not a possible order)"], "TURKEY": []}
    with pytest.raises(IllegalActionError, match=r"names \['FRANCE'\], which you do not play"):
        game.check_open_ended(state, RUSSIA, Action("orders", json.dumps({"orders": {"FRANCE": ["A PAR H"]}})))
    with pytest.raises(ActionParseError, match='keyed by power'):
        read_orders('{"orders": ["A MOS H"]}', observation)
    rng = random.Random(1)
    joint = {p: state.fallback_action(p, rng) for p in (0, 3)}
    joint[RUSSIA] = action
    state.apply({p: game.check_open_ended(state, p, a) for p, a in joint.items()})
    assert groups_from_history(state.history) == state.groups
    again = replay(game, state.history)
    assert again.phase_log[0]["orders"] == state.phase_log[0]["orders"]
    assert state.phase_log[0]["orders"]["TURKEY"] == ["F ANK - BLA"]


def test_the_paper_negotiation_reader_keys_messages_by_sending_power():
    game, state = _seated("3-agents")
    turn = NegotiationTurn("S1901M", 1, 3, 64, 10_000, {0: "AUSTRIA", 3: "GERMANY"})
    observation = game.observe_negotiation(state, RUSSIA, turn)
    reply = "Thinking.\n" + json.dumps({"messages": {
        "RUSSIA": {"recipients": ["GERMANY", "GLOBAL", "ENGLAND"], "messages": ["a", "b"]},
        "TURKEY": {"recipients": ["SPAIN"], "messages": ["c"]},
        "FRANCE": {"recipients": ["ITALY"], "messages": ["d"]},
    }})
    sent = [(o.text, o.to, o.sender_role, o.to_roles) for o in read_messages(reply, observation)]
    assert sent == [("a", (3,), "RUSSIA", ("GERMANY",)), ("b", (), "RUSSIA", ("GLOBAL",)),
                    ("c", (-1,), "TURKEY", ("SPAIN",)), ("d", (-1,), "FRANCE", ("ITALY",))]
    assert read_messages("no JSON here", observation) == []
    negotiation = state.negotiation()
    assert negotiation == Negotiation("S1901M", (0, 3, 5), rounds=3, max_messages=64, max_chars=10_000)


def test_paper_scores_stay_physically_possible_over_random_play():
    """Seeded random order sets for every agent of each seating, two years: 0..34 per power, at most 34 in all."""
    for name in ("2-agents", "5-agents", "basic-skill"):
        game = Diplomacy("to1902", protocol="paper") if name != "basic-skill" else DiplomacyNoPress(
            "to1902", protocol="paper")
        _, state = _seated(name, game)
        rng = random.Random(name)
        while not state.is_terminal():
            players = state.current_players()
            state.apply({p: game.check_open_ended(state, p, state.fallback_action(p, rng)) for p in players})
            scores = state.scores()
            assert all(0 <= s <= 34 for s in scores) and sum(scores) <= 34
        metrics = diplomacy_metrics(game, type("Outcome", (), {"history": state.history})(), 0)
        assert sum(m["supply_centers"] for m in metrics.values()) == sum(state.scores()) <= 34


def _session(tmp_path, **settings):
    from stratbench.families import standalone_registry
    from stratbench.games.spin.plugin import SpinSettings
    from stratbench.run.session import RunSettings, StratbenchSession

    registry = standalone_registry(("games", "agents", "scaffolds", "metrics"))
    opponent = settings.pop("diplomacy_opponent", None)
    families = {"spin": SpinSettings(diplomacy_opponent=opponent)}
    return StratbenchSession(RunSettings(report_dir=tmp_path, run_id="t", families=families, **settings), registry,
                             is_controller=False)


def test_model_seats_take_the_opponent_model_else_the_subjects_else_stay_offline(tmp_path):
    from stratbench.core.agent import AgentSpec
    from stratbench.core.schedule import SuiteSpec, build_schedule

    seating = PAPER_SEATINGS["3-agents"]
    suite = SuiteSpec("diplomacy", baselines=("hold",), matches=1, seatings={"3-agents": seating})
    subject = AgentSpec("llm", "openai/s", "cot")
    specs = build_schedule(suite, [subject, AgentSpec("hold")], num_sides=7)
    assert [s.seating for s in specs] == [seating, seating]
    by_subject = {s.sides[s.subject].label: s for s in specs}

    def sides(session, label):
        return [side.label for side in session.seat_models(by_subject[label]).sides]

    offline = _session(tmp_path)
    assert sides(offline, "hold") == ["diplomacy-opponent-2"] * 3 + ["diplomacy-opponent-1"] * 2 + ["hold"] * 2
    with_model = _session(tmp_path, models=["openai/s"])
    assert sides(with_model, "openai/s+cot") == (["diplomacy-opponent-2=openai/s+direct"] * 3
                                                 + ["diplomacy-opponent-1=openai/s+direct"] * 2 + ["openai/s+cot"] * 2)
    assert sides(with_model, "hold")[:5] == sides(with_model, "openai/s+cot")[:5]  # a baseline meets the LLMs too
    chosen = _session(tmp_path, models=["openai/s"], diplomacy_opponent="openai/o")
    assert sides(chosen, "openai/s+cot")[0] == "diplomacy-opponent-2=openai/o+direct"
    assert all(s.uses_llm for s in chosen.seat_models(by_subject["hold"]).sides[:5])


def test_a_dropped_order_set_holds_every_power_of_the_agent_and_is_counted_per_power():
    game, state = _seated("2-agents")
    rng = random.Random(0)
    dropped = game.check_open_ended(state, 4, state.pass_action(4))
    state.apply({0: game.check_open_ended(state, 0, state.fallback_action(0, rng)), 4: dropped})
    entry = state.phase_log[0]
    assert [entry["orders"][p] for p in ("ITALY", "RUSSIA", "TURKEY")] == [[], [], []]
    metrics = diplomacy_metrics(game, type("Outcome", (), {"history": state.history})(), 0)
    assert [metrics[p]["order_sets_dropped"] for p in range(7)] == [0, 0, 0, 0, 1, 1, 1]
