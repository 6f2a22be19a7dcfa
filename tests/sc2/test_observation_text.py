"""A hand-built observation proto (pysc2's ``dummy_observation.Builder`` -> ``Features.transform_obs``) as text."""

from __future__ import annotations

import random

from stratbench.games.sc2.config import (
    AgentConfig,
    Layout,
    TeamConfig,
    assign_teams,
    interface_format,
)
from stratbench.games.sc2.observation_text import (
    Received,
    TextContext,
    observation_text,
)
from stratbench.games.sc2.unit_table import UnitTable

STALKER_A, STALKER_B, ZEALOT, ROACH, FAR_ROACH = 0x100010001, 0x100020001, 0x100030001, 0x100040001, 0x100050001


def _observation(pysc2, order=None, game_loop=515):
    aif = interface_format()
    features = pysc2.features.Features(aif, map_size=pysc2.common_pb.Size2DI(x=64, y=64))
    dummy, units, point = pysc2.dummy_observation, pysc2.units, pysc2.common_pb.Point
    specs = [
        (STALKER_A, dummy.FeatureUnit(units.Protoss.Stalker, 1, owner=1, pos=point(x=30, y=32, z=0), radius=0.5,
                                      health=80, health_max=80, shield=80, shield_max=80, is_on_screen=True,
                                      weapon_cooldown=5)),
        (STALKER_B, dummy.FeatureUnit(units.Protoss.Stalker, 1, owner=1, pos=point(x=30, y=30, z=0), radius=0.5,
                                      health=40, health_max=80, shield=0, shield_max=80, is_on_screen=True)),
        (ZEALOT, dummy.FeatureUnit(units.Protoss.Zealot, 1, owner=1, pos=point(x=28, y=32, z=0), radius=0.5,
                                   health=100, health_max=100, shield=50, shield_max=50, is_on_screen=True)),
        (ROACH, dummy.FeatureUnit(units.Zerg.Roach, 4, owner=2, pos=point(x=36, y=32, z=0), radius=0.5,
                                  health=64, health_max=145, is_on_screen=True)),
        (FAR_ROACH, dummy.FeatureUnit(units.Zerg.Roach, 4, owner=2, pos=point(x=56, y=50, z=0), radius=0.5,
                                      health=145, health_max=145, is_on_screen=False)),
    ]
    if order is not None:
        specs = [specs[i] for i in order]
    proto = dummy.Builder(features.observation_spec()).game_loop(game_loop).feature_units([u for _, u in specs]).build()
    for raw_unit, (tag, _) in zip(proto.observation.raw_data.units, specs):
        raw_unit.tag = tag
    proto.observation.raw_data.player.camera.x = 32
    proto.observation.raw_data.player.camera.y = 32
    return features.transform_obs(proto)


LAYOUT = Layout(
    (AgentConfig("CombatGroup1", "Protoss frontline commander, controls several Stalkers.",
                 (TeamConfig("Stalker-1", ("Stalker",), actions=("Attack_Unit", "Move_Screen")),)),
     AgentConfig("CombatGroup0", "Protoss vanguard, controls Zealots.",
                 (TeamConfig("Zealot-1", ("Zealot",), actions=("Attack_Unit",)),))),
    communication=True,
    task={"*": "Kill as much as enemy units as possible."},
)


def _text(observation, **context):
    teams = assign_teams(LAYOUT, UnitTable.from_observation(observation))
    return observation_text(observation, LAYOUT.agents[0], TextContext(LAYOUT, teams, **context))


def test_units_have_tags_screen_positions_and_vitals(pysc2):
    text = _text(_observation(pysc2))
    lines = text.splitlines()
    assert lines[:3] == ["Game Info:", "Time: 0:22", ""]  # 515 loops / 22.4 = 22.99 s
    assert "Team Stalker-1 Info:" in lines
    assert "\tTeam minimap position: [30, 33]" in lines
    assert ("\t\tUnit: Stalker    Tag: 0x100010001    ScreenPos: [53, 64]    Health: 160(100 %)    "
            "Weapon_cooldown: 5") in lines
    assert ("\t\tUnit: Stalker    Tag: 0x100020001    ScreenPos: [53, 74]    Health: 40(25 %)    "
            "Weapon_cooldown: 0") in lines
    assert "\t\tUnit: Zealot    Tag: 0x100030001    ScreenPos: [42, 64]    Health: 150(100 %)" in lines
    assert "\t\tUnit: Roach    Tag: 0x100040001    ScreenPos: [85, 64]    Distance: 6    Health: 64(44 %)" in lines
    assert ("\t\tUnit: Roach    Tag: 0x100050001    MinimapPos: [56, 14]    Health: 145(100 %)") in lines
    assert "\t\t<Attack_Unit(tag)>" in lines and "\t\t<Move_Screen(screen)>" in lines
    assert "\tTeam Stalker-1' task: Kill as much as enemy units as possible." in lines
    assert "\tCombatGroup0: Protoss vanguard, controls Zealots." in lines
    assert lines[-1] == "Now, start generating your analysis, actions and communication:"


def test_agent_text_assigns_the_teams_itself(pysc2):
    from stratbench.games.sc2.observation_text import agent_text

    observation = _observation(pysc2)
    assert agent_text(observation, LAYOUT, "CombatGroup1") == _text(observation)


def test_the_text_never_depends_on_unit_order(pysc2):
    first = _text(_observation(pysc2))
    for seed in range(3):
        order = list(range(5))
        random.Random(seed).shuffle(order)
        assert _text(_observation(pysc2, order=order)) == first


def test_errors_messages_and_last_actions_are_shown(pysc2):
    text = _text(
        _observation(pysc2),
        last_actions={"Stalker-1": ["<Attack_Unit(0x100040001)>"]},
        errors=(("<Attack_Unit(0x100090001)>", "cannot find unit 0x100090001 on screen"),),
        received=(Received("CombatGroup0", "Focus the roach."), Received("Commander", "Hold.", "Channel-1")),
    )
    assert "Last Step \nActions:\n\tTeam Stalker-1:\n\t\t<Attack_Unit(0x100040001)>\n" in text
    assert ("Last Step Action Errors:\n\t<Attack_Unit(0x100090001)>:\n\t\tcannot find unit 0x100090001 on screen"
            in text)
    assert "Communication information:\n\tFrom CombatGroup0: \n\t\tFocus the roach.\n\tIn Channel-1: \n" \
           "\t\tFrom Commander: Hold.\n" in text


def test_the_paper_wording_leaves_out_the_project_sections(pysc2):
    text = _text(_observation(pysc2), errors=(("<Stop()>", "x"),), paper=True)
    assert "Last Step Action Errors" not in text
    assert "Other Visible Enemy Units" not in text and "MinimapPos" not in text


def test_the_image_shows_screen_and_minimap_with_units_and_is_stable(pysc2):
    import io

    from PIL import Image
    from stratbench.games.sc2.images import render_png

    observation = _observation(pysc2)
    png = render_png(observation)
    assert png == render_png(_observation(pysc2, order=[4, 3, 2, 1, 0]))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (128 * 4 + 8 + 64 * 4, 128 * 4)
    assert image.getpixel((53 * 4 + 3, 64 * 4 + 3)) == (40, 200, 40)  # own Stalker at screen [53, 64]
    assert image.getpixel((85 * 4 + 3, 64 * 4 + 3)) == (220, 40, 40)  # the Roach at [85, 64]
    assert image.getpixel((128 * 4 + 8 + 56 * 4 + 3, 14 * 4 + 3)) == (220, 40, 40)  # the far Roach on the minimap


def test_valid_actions_are_those_pysc2_makes_available_to_the_selected_team(pysc2):
    from stratbench.games.sc2.config import Layout as _Layout
    from stratbench.games.sc2.mock_battle import make_env_factory, skirmish
    from stratbench.games.sc2.multi_agent import LockStepEpisode

    layout = _Layout((AgentConfig("CombatGroup1", "Stalkers.", (TeamConfig("Stalker-1", ("Stalker",)),)),))
    episode = LockStepEpisode(make_env_factory(skirmish((("Protoss.Stalker", 2),), (("Zerg.Roach", 1),))), layout)
    episode.start()
    text = episode.text("CombatGroup1")
    shown = text.split("Team Stalker-1 Valid Actions:\n", 1)[1].split("\n\n", 1)[0].split("\n")
    # The mock grants Attack, Move, Hold Position and Stop to a selection; Blink (180) is not available,
    # so both Blink actions are left out, as the released filter does.
    assert shown == ["\t\t<Stop()>", "\t\t<No_Operation()>", "\t\t<Hold_Position()>",
                     "\t\t<Move_Minimap(minimap)>", "\t\t<Move_Screen(screen)>", "\t\t<Attack_Unit(tag)>",
                     "\t\t<Select_Unit_Move_Screen(tag, screen)>", "\t\t<Select_Unit_Attack_Unit(tag, tag)>"]
    assert episode.env_steps == 2  # select the first Stalker, toggle the second
