"""Reading replies (``Team`` blocks, actions, messages) and planning them into pysc2 calls."""

from __future__ import annotations

from stratbench.games.sc2.action_grammar import (
    OutgoingMessage,
    ParsedAction,
    Point,
    Tag,
    parse_actions,
)
from stratbench.games.sc2.action_translate import plan, resolve, translate
from stratbench.games.sc2.config import TeamConfig, TeamView, assign_teams
from stratbench.games.sc2.unit_table import UnitTable

REPLY = """Analysis:
  The roach is closest. <Attack_Unit(0x999)> is not read here.
**Actions:**
  **Team Stalker-1:**
    - <Attack_Unit(0x100040001)>
    `<Move_Screen([67.5, 96])>`
  Team Zealot-1:
    <Attack_Unit(0x100040001)> <Stop()>
Communications:
  <MessageTo(CombatGroup0, '''first''')>
  <MessageTo(CombatGroup0, '''Focus the roach, then
hold.''')>
  <MessageTo(Channel-2, '''all hold''')>
  <ListenTo(Channel-2)>
"""


def test_reply_layout_is_read_as_released():
    parsed = parse_actions(REPLY)
    assert [block.name for block in parsed.teams] == ["Stalker-1", "Zealot-1"]
    assert parsed.actions_of("Stalker-1") == (ParsedAction("Attack_Unit", (Tag(0x100040001),)),
                                             ParsedAction("Move_Screen", (Point(67.5, 96),)))
    assert [a.to_text() for a in parsed.actions_of("Zealot-1")] == ["<Attack_Unit(0x100040001)>", "<Stop()>"]
    # A later message to the same target replaces the earlier one (the released dict keyed by receiver).
    assert parsed.messages == (OutgoingMessage("CombatGroup0", "Focus the roach, then\nhold."),
                               OutgoingMessage("Channel-2", "all hold"))
    assert parsed.listens == ("Channel-2",)


def test_without_an_actions_header_only_the_lenient_reader_reads():
    text = "Team Stalker-1:\n  <Hold_Position()>\n"
    assert parse_actions(text).actions_of("Stalker-1") == (ParsedAction("Hold_Position"),)
    strict = parse_actions(text, strict=True)
    assert strict.teams == () and not strict.found_actions_header


def _mock_observation(pysc2):
    from stratbench.games.sc2.mock_battle import make_env_factory, skirmish

    env = make_env_factory(skirmish((("Protoss.Stalker", 2), ("Protoss.Zealot", 1)), (("Zerg.Zergling", 2),)))()
    return env.reset()[0].observation


def _teams(observation):
    table = UnitTable.from_observation(observation)
    own = [u for u in table.units if u.alliance == 1]
    stalkers = TeamView("Stalker-1", TeamConfig("Stalker-1", ("Stalker",), actions=("Attack_Unit", "Move_Screen")),
                        tuple(u for u in own if u.type_name == "Stalker"))
    zealots = TeamView("Zealot-1", TeamConfig("Zealot-1", ("Zealot",)), tuple(u for u in own if u.type_name == "Zealot"))
    return table, (stalkers, zealots)


def test_a_team_is_selected_before_its_actions_and_the_first_call_is_now(pysc2):
    observation = _mock_observation(pysc2)
    _, teams = _teams(observation)
    reply = parse_actions("Actions:\nTeam Stalker-1:\n<Move_Screen([70, 60])>\n<Attack_Unit(0x100040001)>\n")
    result = translate(reply, observation, teams=teams, check_available=False)
    assert result.rejected == []
    assert [(int(c.function), [list(map(int, a)) for a in c.arguments]) for c in result.calls] == [
        (2, [[0], [32, 96]]),  # select_point select, first Stalker
        (2, [[1], [32, 85]]),  # toggle the second
        (331, [[0], [70, 60]]),  # Move_screen now
        (12, [[1], [96, 96]]),  # Attack_screen queued, on the Zergling's screen position
    ]
    assert result.accepted == {"Stalker-1": ["<Move_Screen([70, 60])>", "<Attack_Unit(0x100040001)>"]}


def test_refusals_carry_the_released_reasons(pysc2):
    observation = _mock_observation(pysc2)
    _, teams = _teams(observation)
    reply = parse_actions(
        "Actions:\nTeam Stalker-1:\n<Attack_Unit(0x100030001)>\n<Attack_Unit(0x1000f0001)>\n<Ability_Blink_Screen([1, 2])>\n"
        "<Move_Screen(0x100040001)>\n<Move_Screen([1, 1])>\nTeam Ghosts:\n<Stop()>\n"
    )
    result = translate(reply, observation, teams=teams, max_actions=3, check_available=False)
    reasons = [(r.action, r.reason) for r in result.rejected]
    assert ("<Ability_Blink_Screen([1, 2])>", "Ability_Blink_Screen is not a valid action for Team Stalker-1") in reasons
    assert ("<Move_Screen(0x100040001)>", "Move_Screen expects <Move_Screen(screen)>") in reasons
    assert ("<Stop()>", "there is no team 'Ghosts' (your teams: Stalker-1, Zealot-1)") in reasons
    assert ("<Attack_Unit(0x100030001)>", "(32, 74) is alliance") in reasons  # the Zealot is our own
    assert ("<Attack_Unit(0x1000f0001)>", "cannot find unit 0x1000f0001 on screen") in reasons
    assert result.accepted == {"Stalker-1": ["<Attack_Unit(0x100030001)>", "<Attack_Unit(0x1000f0001)>",
                                             "<Move_Screen([1, 1])>"]}
    assert int(result.calls[-1].function) == 331  # the one valid action still runs


def test_more_actions_than_allowed_are_refused(pysc2):
    observation = _mock_observation(pysc2)
    _, teams = _teams(observation)
    text = "Actions:\nTeam Zealot-1:\n" + "<Hold_Position()>\n" * 5
    planned = plan(parse_actions(text), teams, max_actions=3)
    assert len(planned.accepted["Zealot-1"]) == 3
    assert [r.reason for r in planned.rejected] == ["only 3 actions per team are executed"] * 2


def test_unavailable_functions_become_no_op_with_the_reason(pysc2):
    observation = _mock_observation(pysc2)
    table, teams = _teams(observation)
    planned = plan(parse_actions("Actions:\nTeam Zealot-1:\n<Hold_Position()>\n"), teams)
    hold = planned.steps[-1]
    call, reason = resolve(hold, table, observation["available_actions"])
    assert int(call.function) == 0
    assert reason == "[Invalid Func] 274/HoldPosition_quick is not available now"


def test_teams_split_by_unit_type_in_configuration_order_and_select_teams_per_unit(pysc2):
    from stratbench.games.sc2.config import AgentConfig, Layout

    observation = _mock_observation(pysc2)
    layout = Layout((
        AgentConfig("A", "a", (TeamConfig("Stalker", ("Stalker",), select="select"),)),
        AgentConfig("B", "b", (TeamConfig("Melee", ("Zealot", "Stalker")),)),
    ))
    teams = assign_teams(layout, UnitTable.from_observation(observation))
    assert [(t.name, [hex(x) for x in t.tags]) for t in teams["A"]] == [
        ("Stalker-1", ["0x100010001"]), ("Stalker-2", ["0x100020001"])]
    assert [(t.name, [hex(x) for x in t.tags]) for t in teams["B"]] == [("Melee", ["0x100030001"])]


def test_without_teams_each_own_unit_type_is_a_team(pysc2):
    observation = _mock_observation(pysc2)
    result = translate(parse_actions("Actions:\nTeam Zealot-1:\n<Attack_Unit(0x100040001)>\n"), observation,
                       check_available=False)
    assert result.rejected == [] and result.accepted == {"Zealot-1": ["<Attack_Unit(0x100040001)>"]}
    assert [int(c.function) for c in result.calls] == [2, 12]  # select the Zealot, attack
