"""pysc2's run-config seam: ``SC2Env(map_name=...)`` on the engine, no binary.

Inside :func:`engine_backend`, ``pysc2.run_configs.get()`` returns
:class:`EngineRunConfig` (highest priority while active); its ``start()``
returns a process whose ``controller`` is pysc2's own ``RemoteController``
talking to an :class:`~stratbench.games.sc2.engine.controller.EngineServer`
through :class:`EngineProtocol` instead of a websocket. Scenario maps are
registered as pysc2 ``Map`` classes by :func:`register_scenario_maps`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from pathlib import Path

from stratbench.games.sc2.engine.controller import EngineServer
from stratbench.games.sc2.engine.scenarios import SCENARIO_DIR
from stratbench.games.sc2.pysc2_compat import import_pysc2

_active = [0]
_classes: dict[str, type] = {}


def _engine_classes():
    if _classes:
        return _classes
    import_pysc2()
    from pysc2.lib import protocol, remote_controller  # optional: the [sc2] extra, after import_pysc2()
    from pysc2.run_configs import lib as run_lib  # optional: the [sc2] extra, after import_pysc2()

    class EngineProtocol(protocol.StarcraftProtocol):
        """pysc2's protocol with the websocket replaced by a serialised call into the engine."""

        def __init__(self, server: EngineServer) -> None:  # noqa: D107 - no socket to open
            self._status = protocol.Status.launched
            self._sock = None
            self._port = 0

            self._count = itertools.count(1)
            self._server = server
            self._pending = b""

        def close(self) -> None:
            self._status = protocol.Status.quit

        def _write(self, request) -> None:
            self._pending = self._server.answer(request.SerializeToString())

        def _read(self):
            from s2clientprotocol import sc2api_pb2  # optional: the [sc2] extra, after import_pysc2()

            return sc2api_pb2.Response.FromString(self._pending)

    class EngineController(remote_controller.RemoteController):
        """pysc2's ``RemoteController``, unchanged but for its transport."""

        def __init__(self, server: EngineServer) -> None:  # noqa: D107
            self._client = EngineProtocol(server)
            self._last_obs = None
            self.ping()

    class EngineProcess:
        """Stands where ``StarcraftProcess`` stands: a controller and ``close()``."""

        def __init__(self) -> None:
            self.controller = EngineController(EngineServer())

        def close(self) -> None:
            self.controller.close()

    class EngineRunConfig(run_lib.RunConfig):
        """Starts :class:`EngineProcess` instead of the StarCraft II binary."""

        def __init__(self, version=None) -> None:
            super().__init__(replay_dir=str(SCENARIO_DIR), data_dir=str(SCENARIO_DIR), tmp_dir=None,
                             version=run_lib.Version("engine", 0, "", None), cwd=None, env=None)

        def _get_version(self, game_version):
            return game_version  # the engine has one version of its own

        @classmethod
        def priority(cls):
            return 10_000 if _active[0] else None

        def map_data(self, map_name, players=None):
            return (SCENARIO_DIR / Path(map_name).with_suffix(".json").name).read_bytes()

        def start(self, want_rgb=True, **kwargs):
            return EngineProcess()

    _classes.update(protocol=EngineProtocol, controller=EngineController, run_config=EngineRunConfig)
    return _classes


def register_scenario_maps() -> list[str]:
    """Make every scenario a pysc2 ``Map`` (so ``SC2Env(map_name=...)`` finds it); returns the names."""
    import_pysc2()
    from pysc2.maps import lib as maps_lib  # optional: the [sc2] extra, after import_pysc2()

    known = {m.__name__ for m in maps_lib.get_maps().values()} if hasattr(maps_lib, "get_maps") else set()
    names = []
    for path in sorted(SCENARIO_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if path.stem not in known and path.stem not in _classes:
            _classes[path.stem] = type(path.stem, (maps_lib.Map,), dict(
                directory="stratbench_engine", filename=path.stem, players=1,
                step_mul=int(data.get("step_mul", 8)), game_steps_per_episode=int(data.get("time_limit_loops", 0))))
        names.append(path.stem)
    return names


@contextlib.contextmanager
def engine_backend():
    """While open, pysc2's ``run_configs.get()`` picks the engine and scenario maps are known."""
    _engine_classes()
    register_scenario_maps()
    from absl import flags  # optional: absl comes with the [sc2] extra

    if not flags.FLAGS.is_parsed():  # pysc2 reads its flags' defaults; no command line is parsed
        flags.FLAGS.mark_as_parsed()
    _active[0] += 1
    try:
        yield
    finally:
        _active[0] -= 1
