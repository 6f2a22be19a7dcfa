"""pysc2's real SC2Env plays full episodes on the engine through the run-config seam."""

from stratbench.games.sc2.config import interface_format
from stratbench.games.sc2.engine.run_config import engine_backend
from stratbench.games.sc2.pysc2_compat import import_pysc2


def _episode(actions_for):
    pysc2 = import_pysc2()
    from pysc2.env import sc2_env

    with engine_backend():
        env = sc2_env.SC2Env(map_name="3s_vs_3z", players=[sc2_env.Agent(sc2_env.Race.protoss)],
                             agent_interface_format=interface_format(screen=32, minimap=32, raw_actions=True),
                             step_mul=8, random_seed=1)
        try:
            timestep = env.reset()[0]
            steps = [timestep]
            while not timestep.last():
                timestep = env.step([actions_for(pysc2, timestep)])[0]
                steps.append(timestep)
        finally:
            env.close()
    return steps


def _no_op(pysc2, _timestep):
    return pysc2.actions.RAW_FUNCTIONS.no_op()


def test_full_episode_with_no_ops_ends_with_a_result_and_raw_units():
    steps = _episode(_no_op)
    first, last = steps[0], steps[-1]
    raw = first.observation.raw_units
    assert sorted(int(u.alliance) for u in raw) == [1, 1, 1, 4, 4, 4]
    assert {int(u.health) for u in raw if u.alliance == 1} == {80}
    assert first.observation.feature_screen.shape == (27, 32, 32)
    assert last.last() and len(steps) > 2
    assert last.observation.game_loop[0] % 8 == 0 or last.observation.game_loop[0] < 3360
    # three Zealots in melee beat three Stalkers that only auto-acquire
    survivors = [u for u in last.observation.raw_units if u.alliance == 4]
    assert survivors and all(u.alliance == 4 for u in last.observation.raw_units)


def test_raw_attack_commands_reach_the_engine_and_replay_identically():
    def focus(pysc2, timestep):
        units = timestep.observation.raw_units
        own = [int(u.tag) for u in units if u.alliance == 1]
        foes = sorted((u for u in units if u.alliance == 4), key=lambda u: (u.health + u.shield, u.tag))
        if not foes:
            return pysc2.actions.RAW_FUNCTIONS.no_op()
        return pysc2.actions.RAW_FUNCTIONS.Attack_unit("now", own, int(foes[0].tag))

    first = _episode(focus)
    second = _episode(focus)
    trace = lambda steps: [(int(s.observation.game_loop[0]), tuple(map(tuple, s.observation.raw_units.tolist()))) for s in steps]  # noqa: E731
    assert trace(first) == trace(second)
    foes_hp = [sum(u.health + u.shield for u in s.observation.raw_units if u.alliance == 4) for s in first]
    assert foes_hp[-1] < foes_hp[0]


def test_unsupported_requests_are_answered_with_an_error_naming_them():
    import_pysc2()
    from s2clientprotocol import sc2api_pb2

    from stratbench.games.sc2.engine.controller import EngineServer

    server = EngineServer()
    request = sc2api_pb2.Request(id=7, replay_info=sc2api_pb2.RequestReplayInfo(replay_path="x.SC2Replay"))
    response = sc2api_pb2.Response.FromString(server.answer(request.SerializeToString()))
    assert response.id == 7 and response.status == 1  # still "launched"
    assert list(response.error) == ["replay_info is unsupported by the stratbench SC2 engine"]


def test_the_engine_run_config_is_chosen_only_inside_engine_backend():
    import_pysc2()
    from pysc2 import run_configs

    with engine_backend():
        assert type(run_configs.get()).__name__ == "EngineRunConfig"
    try:
        chosen = type(run_configs.get()).__name__
    except Exception as error:  # no StarCraft II here: pysc2's own configs may refuse to start
        chosen = type(error).__name__
    assert chosen != "EngineRunConfig"


def test_a_queued_raw_command_waits_behind_the_attack():
    pysc2 = import_pysc2()
    from pysc2.env import sc2_env

    functions, column = pysc2.actions.RAW_FUNCTIONS, pysc2.features.FeatureUnit
    with engine_backend():
        env = sc2_env.SC2Env(map_name="3s_vs_3z", players=[sc2_env.Agent(sc2_env.Race.protoss)],
                             agent_interface_format=interface_format(screen=32, minimap=32, raw_actions=True),
                             step_mul=8, random_seed=1)
        try:
            raw = env.reset()[0].observation.raw_units
            own = [int(u.tag) for u in raw if u.alliance == 1]
            foe = min(int(u.tag) for u in raw if u.alliance == 4)
            env.step([functions.Attack_unit("now", own, foe)])
            raw = env.step([functions.Move_pt("queued", own, [2, 16])])[0].observation.raw_units
            assert [int(u[column.order_length]) for u in raw if u.alliance == 1] == [2, 2, 2]  # attack, then move
            raw = env.step([functions.Move_pt("now", own, [2, 16])])[0].observation.raw_units
            assert [int(u[column.order_length]) for u in raw if u.alliance == 1] == [1, 1, 1]  # replaced
        finally:
            env.close()
