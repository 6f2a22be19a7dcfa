"""Game families load through the ``stratbench`` entry-point group: the built-in ones exactly as a third party's.

Third-party families here are real wheels installed with pip into a target
directory on ``PYTHONPATH``, so ``importlib.metadata`` finds their entry
points as it finds any installed package's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from stratbench import builtins
from stratbench.families import (
    ENTRY_POINT_GROUP,
    family_entry_points,
    standalone_manager,
    standalone_registry,
)
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""


def install_family(tmp_path: Path, name: str, module_text: str) -> Path:
    """Builds a wheel holding ``<name>_family.py`` registered as the ``stratbench`` entry point ``name``, and
    pip-installs it into a target directory; returns that directory."""
    dist = f"{name}_family-1.0.dist-info"
    files = {
        f"{name}_family.py": module_text,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}-family\nVersion: 1.0\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/entry_points.txt": f"[{ENTRY_POINT_GROUP}]\n{name} = {name}_family\n",
    }
    files[f"{dist}/RECORD"] = "\n".join([*(f"{path},," for path in files), f"{dist}/RECORD,,"]) + "\n"
    wheel = tmp_path / f"{name}_family-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    target = tmp_path / f"site-{name}"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target",
                    str(target), str(wheel)], check=True)
    return target


def test_the_built_in_families_are_the_entry_points_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert sorted(declared) == sorted(builtins.FAMILIES)
    assert all(value == f"stratbench.games.{name}.plugin" for name, value in declared.items())
    installed = {point.name: point.value for point in family_entry_points()}
    assert {name: installed[name] for name in builtins.FAMILIES} == declared


def test_every_game_is_registered_by_a_family_plugin_and_none_twice():
    manager = standalone_manager()
    owners: dict[str, str] = {}
    for name, plugin in manager.list_name_plugin():
        hook = getattr(plugin, "pytest_stratbench_add_games", None)
        if hook is None:
            continue
        from stratbench.registry import Registry

        registry = Registry()
        hook(registry=registry)
        for game in registry.games:
            assert game not in owners, f"{game} registered by {owners[game]} and {name}"
            owners[game] = name
    assert {owners[g] for g in ("tictactoe", "chess", "pddl")} == {"stratbench-family-spin"}
    assert owners["hive"] == "stratbench-family-gamebench" and owners["sc2_smac"] == "stratbench-family-sc2"
    assert owners["tower_defense"] == "stratbench-family-advgame"
    assert set(owners) == set(standalone_registry(("games",)).games)


def test_report_sections_come_in_the_built_in_familys_order_then_the_core():
    sections = list(standalone_registry(("reporters",)).report_sections)
    spin, gamebench = sections.index("solver_games"), sections.index("gamebench_categories")
    advgame, sc2 = sections.index("advgame"), sections.index("sc2")
    assert spin < gamebench < advgame < sc2 < sections.index("scaffolds") == len(sections) - 1


def test_family_options_are_in_their_own_groups_in_pytest_help(pytester):
    result = pytester.runpytest_subprocess("--help")
    text = result.stdout.str()
    for title, option in (("stratbench: SPIN-Bench", "--stockfish"), ("stratbench: AdvGameBench", "--advgame-rounds"),
                          ("stratbench: StarCraft II (LLM-PySC2)", "--sc2-backend")):
        assert title in text
        assert text.index(title) < text.index(option)


BROKEN = "raise ImportError('needs the nimbus package')\n"


@pytest.mark.slow
def test_a_family_that_cannot_load_is_one_line_naming_it(pytester, tmp_path):
    site = install_family(tmp_path, "broken", BROKEN)
    pytester.makepyfile(test_ttt=SUITE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    result = run_pytest(["-p", "no:cacheprovider", "-q"], cwd=pytester.path,
                            env=env, timeout=300)
    assert result.returncode == 4, result.stdout + result.stderr
    assert ("stratbench: family 'broken' (broken_family) cannot be loaded: ImportError: needs the nimbus package"
            in result.stderr)
    assert "Traceback" not in result.stderr


SAME_OPTION = '''
from dataclasses import dataclass
import pytest
from stratbench.family_settings import FamilySettings


@dataclass(frozen=True)
class Clash(FamilySettings):
    family = "clash"
    stockfish: str | None = None


@pytest.hookimpl
def pytest_stratbench_family_settings(config):
    return Clash()
'''


@pytest.mark.slow
def test_two_families_with_one_setting_name_are_refused_naming_both(pytester, tmp_path):
    site = install_family(tmp_path, "clash", SAME_OPTION)
    pytester.makepyfile(test_ttt=SUITE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    result = run_pytest(["-p", "no:cacheprovider", "-q"], cwd=pytester.path,
                            env=env, timeout=300)
    assert result.returncode == 4, result.stdout + result.stderr
    assert "stratbench: families 'spin' and 'clash' both have a setting 'stockfish'" in result.stderr


def test_a_stale_install_without_a_built_in_entry_point_says_to_reinstall(monkeypatch):
    import stratbench.families as families

    points = [point for point in families.entry_points(group=ENTRY_POINT_GROUP) if point.name != "sc2"]
    monkeypatch.setattr(families, "entry_points", lambda group: points if group == ENTRY_POINT_GROUP else [])
    with pytest.raises(families.FamilyLoadError, match=r"^the built-in family sc2 is not installed as 'stratbench' "
                                                        r"entry points; reinstall stratbench \(pip install -e \.\)$"):
        family_entry_points()


def test_a_family_setting_read_as_a_run_setting_still_works_with_a_deprecation_warning():
    from stratbench.games.spin.plugin import SpinSettings
    from stratbench.run.session import RunSettings

    settings = RunSettings(families={"spin": SpinSettings(stockfish="/opt/sf")})
    with pytest.warns(DeprecationWarning, match=r"RunSettings\.stockfish is deprecated: read "
                                                r"settings\.families\['spin'\]\.stockfish"):
        assert settings.stockfish == "/opt/sf"
    with pytest.raises(AttributeError, match="'RunSettings' object has no attribute 'sotckfish'"):
        settings.sotckfish  # noqa: B018 - a typo stays an AttributeError
    assert settings.as_options()["stockfish"] == "/opt/sf" and settings.deciding() == {"stockfish": "/opt/sf"}
