"""The one place that imports pysc2, with the two fixes it needs on Python 3.11.

pysc2 4.0.0 (the newest release on PyPI) ships old-style generated protobuf
modules (through ``s2clientprotocol``) and calls ``random.shuffle`` with the
``random`` argument that Python 3.11 removed. So:

1. ``PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python`` must be set before the
   first ``_pb2`` module loads in the process. :func:`prepare_protobuf` sets it
   (stratbench's plugin calls it from its earliest hook, and ``.ci/run``
   exports it); :func:`import_pysc2` refuses, in one clear line, when protobuf
   was already loaded with a compiled backend.
2. ``pysc2.lib.colors`` builds a palette at import with
   ``random.shuffle(palette, lambda: 0.5)``. While that module loads,
   ``random.shuffle`` is the CPython 3.10 algorithm (same fixed permutation);
   afterwards the standard function is back and the module keeps a private
   shim for its later calls.

Entry point: :func:`import_pysc2` returns the pysc2 modules stratbench uses,
or raises :class:`PySC2Unavailable` whose message names the install command.
"""

from __future__ import annotations

import os
import random
import sys
import warnings
from types import SimpleNamespace
from typing import Any

PROTOBUF_VARIABLE = "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"
INSTALL_HINT = "pysc2 is not installed (pip install 'pytest-stratbench[sc2]')"
"""Why the StarCraft II suites are skipped when pysc2 cannot be imported."""

_loaded: SimpleNamespace | None = None


class PySC2Unavailable(ImportError):
    """Raised when pysc2 cannot be used here; the message says why and how to fix it."""


def prepare_protobuf() -> None:
    """Asks protobuf for its pure-Python backend, unless the environment already chose one.

    Has an effect only before protobuf's first import in the process.
    """
    os.environ.setdefault(PROTOBUF_VARIABLE, "python")


def protobuf_problem() -> str | None:
    """Returns why pysc2's protobuf modules cannot load in this process, or None."""
    if "google.protobuf" not in sys.modules:
        return None
    from google.protobuf.internal import api_implementation  # setup: read only once protobuf is loaded

    backend = api_implementation.Type()
    if backend == "python":
        return None
    return (
        f"protobuf was loaded with its {backend!r} backend before {PROTOBUF_VARIABLE}=python was set; "
        f"pysc2's generated modules need the python backend (export {PROTOBUF_VARIABLE}=python before starting)"
    )


def legacy_shuffle(items: list[Any], rnd: Any = None) -> None:
    """Shuffles in place as CPython 3.10 did, including its optional ``random`` argument."""
    if rnd is None:
        _STANDARD_SHUFFLE(items)
        return
    for i in reversed(range(1, len(items))):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


_STANDARD_SHUFFLE = random.shuffle


class _RandomWithLegacyShuffle:
    """The ``random`` module as ``pysc2.lib.colors`` sees it: the same, but with :func:`legacy_shuffle`."""

    shuffle = staticmethod(legacy_shuffle)

    def __getattr__(self, name: str) -> Any:
        return getattr(random, name)


def import_pysc2() -> SimpleNamespace:
    """Imports pysc2 with both fixes and returns the modules stratbench uses.

    Returns:
        A namespace with ``actions``, ``features``, ``units``, ``point``,
        ``environment``, ``sc2_env``, ``mock_sc2_env``, ``dummy_observation``
        and the protocol modules ``sc_pb``, ``common_pb``, ``raw_pb``,
        ``score_pb``, ``ui_pb``.

    Raises:
        PySC2Unavailable: when pysc2 is missing or protobuf was loaded with a
            compiled backend first.
    """
    global _loaded
    if _loaded is not None:
        return _loaded
    prepare_protobuf()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pysc2's renderer imports pygame, which greets on stdout
    problem = protobuf_problem()
    if problem is not None:
        raise PySC2Unavailable(problem)
    try:
        import pysc2  # noqa: F401  # optional: the [sc2] extra, after the protobuf check
    except ImportError:
        raise PySC2Unavailable(INSTALL_HINT) from None
    with warnings.catch_warnings():
        # s2clientprotocol's old generated modules and sk-video warn at import; nothing a user can act on.
        warnings.simplefilter("ignore", DeprecationWarning)
        if "pysc2.lib.colors" not in sys.modules:
            random.shuffle = legacy_shuffle  # type: ignore[assignment]
            try:
                from pysc2.lib import colors  # optional: the [sc2] extra; after the shuffle shim
            finally:
                random.shuffle = _STANDARD_SHUFFLE  # type: ignore[assignment]
            colors.random = _RandomWithLegacyShuffle()  # type: ignore[attr-defined]
        from pysc2.env import environment, mock_sc2_env, sc2_env  # optional: [sc2] extra; after protobuf setup
        from pysc2.lib import actions, features, point, units  # optional: [sc2] extra; after protobuf setup
        from pysc2.tests import dummy_observation  # optional: [sc2] extra; after protobuf setup
        from s2clientprotocol import (  # optional: [sc2] extra; after protobuf setup
            common_pb2,
            raw_pb2,
            score_pb2,
            ui_pb2,
        )
        from s2clientprotocol import sc2api_pb2 as sc_pb  # optional: [sc2] extra; after protobuf setup

    _loaded = SimpleNamespace(
        actions=actions,
        features=features,
        units=units,
        point=point,
        environment=environment,
        sc2_env=sc2_env,
        mock_sc2_env=mock_sc2_env,
        dummy_observation=dummy_observation,
        sc_pb=sc_pb,
        common_pb=common_pb2,
        raw_pb=raw_pb2,
        score_pb=score_pb2,
        ui_pb=ui_pb2,
    )
    return _loaded


def unavailable_reason() -> str | None:
    """Returns why pysc2 cannot be used here (one line), or None when it can."""
    try:
        import_pysc2()
    except PySC2Unavailable as error:
        return str(error)
    return None
