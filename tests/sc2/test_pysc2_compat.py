"""pysc2 on Python 3.11: the protobuf backend, the ``random.shuffle`` shim, and running without pysc2."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from stratbench.games.sc2.pysc2_compat import PROTOBUF_VARIABLE, legacy_shuffle

ROOT = Path(__file__).resolve().parents[2]


def _run(args, *, env=None, cwd=ROOT):
    environment = {k: v for k, v in os.environ.items() if k != PROTOBUF_VARIABLE}
    environment.update(env or {})
    return subprocess.run(args, check=False, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)


def test_the_legacy_shuffle_is_cpython_3_10s_fixed_permutation():
    items = list(range(5))
    legacy_shuffle(items, lambda: 0.5)
    assert items == [0, 3, 1, 4, 2]  # i=4 swaps with 2, i=3 with 2, i=2 with 1, i=1 with itself


def test_pysc2_imports_and_random_shuffle_is_given_back(pysc2):
    assert random.shuffle.__func__ is random.Random.shuffle
    palette = list(pysc2.features.colors.smooth_hue_palette(7))
    legacy_shuffle(palette, lambda: 0.5)
    assert (pysc2.features.colors.shuffled_hue(7) == palette).all()  # a later call still works, same order
    with pytest.raises(TypeError):
        random.shuffle([1, 2], lambda: 0.5)  # the standard function is untouched


@pytest.mark.slow
def test_the_plugin_chooses_the_python_backend_before_test_modules_load_protobuf(pysc2, tmp_path):
    test = tmp_path / "test_backend.py"
    test.write_text(
        "import os\n"
        "from google.protobuf.internal import api_implementation\n"
        "from stratbench.games.sc2.pysc2_compat import import_pysc2\n\n"
        "def test_backend():\n"
        f"    assert os.environ['{PROTOBUF_VARIABLE}'] == 'python'\n"
        "    assert api_implementation.Type() == 'python'\n"
        "    assert len(import_pysc2().actions.FUNCTIONS) == 573\n"
    )
    result = _run([sys.executable, "-m", "pytest", str(test), "-q", "-p", "no:cacheprovider",
                   "--rootdir", str(tmp_path), "-c", os.devnull], cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "1 passed" in result.stdout


def test_protobuf_loaded_with_a_compiled_backend_first_is_refused_in_one_line(pysc2):
    code = (
        "from google.protobuf.internal import api_implementation\n"
        "from stratbench.games.sc2.pysc2_compat import PySC2Unavailable, import_pysc2\n"
        "try:\n    import_pysc2()\nexcept PySC2Unavailable as error:\n    print('REFUSED', error)\n"
        "else:\n    print('LOADED', api_implementation.Type())\n"
    )
    result = _run([sys.executable, "-c", code], env={PROTOBUF_VARIABLE: "upb"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == (
        f"REFUSED protobuf was loaded with its 'upb' backend before {PROTOBUF_VARIABLE}=python was set; "
        f"pysc2's generated modules need the python backend (export {PROTOBUF_VARIABLE}=python before starting)"
    )


@pytest.mark.slow
def test_without_pysc2_the_suites_run_and_say_so_in_one_line(tmp_path):
    blocked = tmp_path / "blocked" / "pysc2"
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text("raise ImportError('blocked for this test')\n")
    path = os.pathsep.join([str(blocked.parent), os.environ.get("PYTHONPATH", "")])
    result = _run([sys.executable, "-m", "pytest", "suites/", "--collect-only", "-q", "-p", "no:cacheprovider"],
                  env={"PYTHONPATH": path})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = [line for line in result.stdout.splitlines() if "StarCraft" in line or "sc2" in line]
    assert lines == [("stratbench: StarCraft II suites skipped: pysc2 is not installed "
                      "(pip install 'pytest-stratbench[sc2]')")]
