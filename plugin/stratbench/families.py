"""Loading the game families and filling the registry: one loader for the plugin, the CLI and the tests.

A family is a plugin module (``games/<family>/plugin.py`` for the built-in
ones) that implements the hooks of :mod:`stratbench.hookspecs`. Families are
found through the ``stratbench`` entry-point group, the built-in ones exactly
as a third-party package's::

    [project.entry-points.stratbench]
    mypkg = "mypkg.plugin"

Under pytest they join pytest's plugin manager (:func:`register_families`);
``stratbench report`` and ``stratbench rate`` build a plugin manager of their
own (:func:`standalone_registry`), so both see the same games, metrics,
report sections and board renderers.
"""

from __future__ import annotations

import sys
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import Any

import pluggy

from stratbench import builtins, core_plugin, hookspecs
from stratbench.registry import Registry

ENTRY_POINT_GROUP = "stratbench"
"""The entry-point group a family registers under (``name = "package.module"``)."""
PLUGIN_PREFIX = "stratbench-family-"
"""The name a family is registered under in a plugin manager: this prefix and its entry point's name."""


class FamilyLoadError(Exception):
    """A family's entry point cannot be loaded, or a built-in family is not installed."""


def family_entry_points() -> list[EntryPoint]:
    """Returns the installed ``stratbench`` entry points, sorted by name (the built-in families among them).

    Raises:
        FamilyLoadError: when a built-in family has no entry point (the install is older than the code).
    """
    found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda point: point.name)
    missing = [name for name in builtins.FAMILIES if name not in {point.name for point in found}]
    if missing:
        raise FamilyLoadError(
            f"the built-in famil{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed as '{ENTRY_POINT_GROUP}' entry points; "
            "reinstall stratbench (pip install -e .)"
        )
    return found


def load_family(point: EntryPoint) -> ModuleType:
    """Imports one family's plugin module.

    Raises:
        FamilyLoadError: naming the entry point and the error.
    """
    try:
        return point.load()
    except Exception as error:  # noqa: BLE001 - any failure of a plugin's import is reported by its name
        raise FamilyLoadError(
            f"family {point.name!r} ({point.value}) cannot be loaded: {type(error).__name__}: {error}"
        ) from error


def register_families(manager: pluggy.PluginManager) -> list[str]:
    """Registers stratbench's core components and every installed family in ``manager`` (once each).

    Returns:
        The names of the families registered.
    """
    if not manager.is_registered(core_plugin):
        manager.register(core_plugin, "stratbench-core")
    names = []
    # pluggy calls the last registered first: register in reverse, so the hooks run (and report sections
    # appear) in the built-in order, then the other families by name, then the core components.
    points = family_entry_points()
    order = {name: i for i, name in enumerate(builtins.FAMILIES)}
    points.sort(key=lambda point: (order.get(point.name, len(order)), point.name))
    for point in reversed(points):
        name = PLUGIN_PREFIX + point.name
        if manager.get_plugin(name) is None:
            module = load_family(point)
            if not manager.is_registered(module):
                manager.register(module, name)
        names.append(point.name)
    return names[::-1]


PARTS = ("games", "agents", "scaffolds", "metrics", "reporters", "protocols")
"""The registration hooks, ``pytest_stratbench_add_<part>``, in the order they are called."""


def fill_registry(hook: Any, parts: tuple[str, ...] = PARTS) -> Registry:
    """Collects what the ``pytest_stratbench_add_<part>`` hooks register: every game, agent, scaffold, metric,
    report part and protocol (or only the ``parts`` named)."""
    registry = Registry()
    for part in parts:
        getattr(hook, f"pytest_stratbench_add_{part}")(registry=registry)
    return registry


def standalone_manager() -> pluggy.PluginManager:
    """A plugin manager outside pytest with stratbench's hooks, its core components and every family.

    Packages that still plug in through a ``pytest11`` entry point are
    registered too when they implement a ``pytest_stratbench_*`` hook (the
    ``stratbench`` group is the way to register a family; ``pytest11`` alone
    is deprecated for it, as the CLI must import such a module to find out).
    """
    manager = pluggy.PluginManager("pytest")
    manager.add_hookspecs(hookspecs)
    register_families(manager)
    for point in sorted(entry_points(group="pytest11"), key=lambda point: point.name):
        if point.value.split(":")[0].startswith("stratbench.") or manager.get_plugin(point.name) is not None:
            continue
        try:
            module = point.load()
        except Exception as error:  # noqa: BLE001 - another pytest plugin that cannot load here is not ours
            print(f"warning: pytest plugin {point.name!r} ({point.value}) not loaded: {error}", file=sys.stderr)
            continue
        if any(name.startswith("pytest_stratbench_") for name in dir(module)) and not manager.is_registered(module):
            manager.register(module, point.name)
    return manager


def standalone_registry(parts: tuple[str, ...] = PARTS) -> Registry:
    """The registry the CLI and the tests use: what a pytest run of the installed families would register
    (or only its ``parts``: ``("agents", "scaffolds")``)."""
    return fill_registry(standalone_manager().hook, parts)
