"""Every pysc2 function id, written as text, reaches an ``sc_pb.Action`` through pysc2's own transform.

Text -> :func:`parse_actions` -> :func:`plan`/:func:`resolve` -> ``FunctionCall``
-> ``Features.transform_action`` for all of ``FUNCTIONS`` (feature layers) and
``RAW_FUNCTIONS`` (raw, written ``Raw_<name>``); a command must carry its
function's ability id.
"""

from __future__ import annotations

import pytest
from stratbench.games.sc2.action_grammar import (
    Number,
    Point,
    Tag,
    TagList,
    Word,
    parse_actions,
)
from stratbench.games.sc2.action_translate import function_form, plan, resolve
from stratbench.games.sc2.config import TeamConfig, TeamView, interface_format
from stratbench.games.sc2.unit_table import UnitTable

OWN, OTHER = 0x100010001, 0x100020001


def _setup(pysc2, *, raw):
    aif = interface_format(screen=64, minimap=32, raw_actions=raw)
    features = pysc2.features.Features(aif, map_size=pysc2.common_pb.Size2DI(x=64, y=64))
    dummy = pysc2.dummy_observation
    units = [dummy.FeatureUnit(pysc2.units.Protoss.Stalker, 1, owner=1, pos=pysc2.common_pb.Point(x=30, y=30, z=0),
                               radius=0.5, health=80, health_max=80, is_on_screen=True),
             dummy.FeatureUnit(pysc2.units.Zerg.Roach, 4, owner=2, pos=pysc2.common_pb.Point(x=34, y=30, z=0),
                               radius=0.5, health=145, health_max=145, is_on_screen=True)]
    proto = dummy.Builder(features.observation_spec()).feature_units(units).build()
    for raw_unit, tag in zip(proto.observation.raw_data.units, (OWN, OTHER)):
        raw_unit.tag = tag
    proto.observation.raw_data.player.camera.x = 32
    proto.observation.raw_data.player.camera.y = 32
    observation = features.transform_obs(proto)
    table = UnitTable.from_observation(observation)
    team = TeamView("Stalker-1", TeamConfig("Stalker-1", ("Stalker",)), (table.by_tag(OWN),))
    return features, proto, table, team


def _example(arg_type):
    if arg_type.name in ("screen", "minimap", "world"):
        return Point(10, 12)
    if arg_type.name == "screen2":
        return Point(20, 22)
    if arg_type.name == "unit_tags":
        return TagList((OWN,))
    if arg_type.name == "target_unit_tag":
        return Tag(OTHER)
    if arg_type.values is not None:
        return Word(list(arg_type.values.__members__)[-1])
    return Number(1)


def _ability_ids(message):
    found = []
    for descriptor, value in message.ListFields():
        if descriptor.name == "ability_id":
            found.append(value)
        elif descriptor.message_type is not None:
            for item in value if isinstance(value, (list, tuple)) or hasattr(value, "__len__") else [value]:
                found.extend(_ability_ids(item))
    return found


def _roundtrip(pysc2, function, *, raw):
    features, proto, table, team = _setup(pysc2, raw=raw)
    name = ("Raw_" if raw else "") + function.name
    text = function_form(name, tuple(_example(a) for a in function.args))
    reply = parse_actions(f"Actions:\n  Team Stalker-1:\n    {text}\n")
    planned = plan(reply, (team,), raw_space=raw)
    assert planned.rejected == [], (text, planned.rejected)
    step = planned.steps[-1]
    call, reason = resolve(step, table, [], screen_size=64, minimap_size=32, check_available=False)
    assert reason is None, (text, reason)
    assert int(call.function) == int(function.id)
    action = features.transform_action(proto.observation, call, skip_available=True)
    return function, call, action


@pytest.mark.slow
def test_every_feature_function_round_trips(pysc2):
    functions = list(pysc2.actions.FUNCTIONS)
    assert len(functions) == 573
    for function in functions:
        function, _, action = _roundtrip(pysc2, function, raw=False)
        if function.ability_id:
            assert function.ability_id in _ability_ids(action), function
        elif function.name != "no_op":
            assert action.ListFields(), function


@pytest.mark.slow
def test_every_raw_function_round_trips(pysc2):
    functions = list(pysc2.actions.RAW_FUNCTIONS)
    assert len(functions) == 564
    for function in functions:
        function, _, action = _roundtrip(pysc2, function, raw=True)
        if function.ability_id:
            assert function.ability_id in _ability_ids(action), function
            assert f"unit_tags: {OWN}" in str(action), function
        elif function.name != "no_op":
            assert action.ListFields(), function


def test_arguments_reach_the_call_in_place(pysc2):
    _, call, _ = _roundtrip(pysc2, pysc2.actions.FUNCTIONS.select_rect, raw=False)
    assert [list(a) if isinstance(a, list) else a for a in call.arguments] == [[1], [10, 12], [20, 22]]
    _, call, action = _roundtrip(pysc2, pysc2.actions.RAW_FUNCTIONS.Attack_unit, raw=True)
    assert action.action_raw.unit_command.target_unit_tag == OTHER


@pytest.mark.parametrize(("text", "reason"), [
    ("<Raw_Attack_unit(now, [0x100010001], 0x100020001)>", "is a raw action; this game takes feature-layer actions"),
    ("<Attack_screen(later, [1, 2])>", "later is not a valid queued"),
    ("<Attack_screen(now)>", "Attack_screen expects (queued, screen)"),
    ("<Fly_Away(now)>", "Fly_Away is not a valid action for Team Stalker-1"),
])
def test_wrong_function_forms_are_refused_with_a_reason(pysc2, text, reason):
    _, _, _, team = _setup(pysc2, raw=False)
    planned = plan(parse_actions(f"Actions:\nTeam Stalker-1:\n{text}"), (team,))
    assert planned.steps == [] and len(planned.rejected) == 1
    assert reason in planned.rejected[0].reason
