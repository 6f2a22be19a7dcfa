"""Shared fixtures for stratbench's own tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytest_plugins = ["pytester"]

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

LEAN_CHILD_OPTIONS = "-p no:hypothesispytest -p no:anyio"
"""What a pytest run that a test starts in a folder of its own needs to start as a user's run does: the
project's addopts (pyproject.toml) keep these test-only plugins out, and a pytester folder has no such file."""


def pytest_addhooks(pluginmanager):
    """Loads hypothesis's plugin back for stratbench's own tests, where the project's addopts kept it out of the run
    (pyproject.toml: it is for benchmark runs)."""
    import _hypothesis_pytestplugin

    if not pluginmanager.is_registered(_hypothesis_pytestplugin):
        pluginmanager.register(_hypothesis_pytestplugin, "hypothesispytest-tests")


def pytest_configure(config):
    # The tests start hundreds of Python processes (xdist workers, the runs they check). Under PYTHONDONTWRITEBYTECODE
    # a fresh clone would compile every module again in each of them; the tests keep their bytecode (in the
    # gitignored __pycache__ folders), whatever the environment says, and so do the processes they start.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # Every run of the tests (the README's command and so .ci/run) ends with its 20 slowest, so that growth is seen.
    if getattr(config.option, "durations", 0) is None:
        config.option.durations = 20
    config.addinivalue_line(
        "markers", "cold_pytest: the test's pytest child runs start a fresh interpreter (it checks imports or start-up)")
    config.addinivalue_line(
        "markers", "runs_first: a test of tens of seconds; it starts before the others, so that under -n no worker "
                   "is left running it alone at the end")


def pytest_collection_modifyitems(items):
    """Puts the ``runs_first`` tests first (each xdist worker collects the same order), the rest as collected."""
    items.sort(key=lambda item: item.get_closest_marker("runs_first") is None)


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory):
    """What the code under test caches (planning task facts) goes to a folder of this session's, never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRATBENCH_CACHE_DIR", str(tmp_path_factory.mktemp("stratbench-cache")))
        yield


@pytest.fixture(scope="session", autouse=True)
def warm_pytest(_session_cache):
    """The starter the tests' pytest child runs are forked from (stratbench.testing.warm_pytest), made before any
    test changes the environment (its process starts at the first run); None when STRATBENCH_COLD_PYTEST=1 asks
    for fresh interpreters."""
    from stratbench.testing import warm_pytest

    if warm_pytest.cold_requested():
        yield None
        return
    starter = warm_pytest.shared_starter()
    yield starter
    starter.close()


@pytest.fixture
def pytester(request, pytester, monkeypatch, warm_pytest):
    """pytester, whose child runs leave out the test-only plugins as the project's own runs do, and start
    forked from the warm starter unless the test is marked ``cold_pytest``."""
    monkeypatch.setenv("PYTEST_ADDOPTS", LEAN_CHILD_OPTIONS)
    if warm_pytest is None or request.node.get_closest_marker("cold_pytest"):
        return pytester
    cold_popen = pytester.popen

    def popen(cmdargs, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=pytester.CLOSE_STDIN, **kw):
        command = [os.fspath(arg) for arg in cmdargs]
        to_files = hasattr(stdout, "name") and hasattr(stderr, "name")
        if command[:2] != [sys.executable, "-mpytest"] or not to_files or stdin is not pytester.CLOSE_STDIN or kw:
            return cold_popen(cmdargs, stdout=stdout, stderr=stderr, stdin=stdin, **kw)
        env = os.environ.copy()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.getcwd(), env.get("PYTHONPATH", "")]))
        return warm_pytest.popen(command[2:], cwd=os.getcwd(), env=env, stdout=stdout.name, stderr=stderr.name)

    monkeypatch.setattr(pytester, "popen", popen)
    return pytester


@pytest.fixture
def fake_llm():
    """A running loopback OpenAI-compatible server (stopped after the test)."""
    from stratbench.testing.fake_llm import FakeLLMServer

    server = FakeLLMServer().start()
    yield server
    server.stop()


@pytest.fixture
def no_provider_keys(monkeypatch):
    """Removes provider API keys from the environment."""
    for name in list(os.environ):
        if name.endswith("_API_KEY") or name in ("OPENAI_API_BASE", "OPENAI_BASE_URL"):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _scaffolds_registry():
    """Gives each test the installed families' registry for the scaffolds' lookups, and restores it after a test
    that built a session of its own (a session installs its registry, maybe a partial one)."""
    from stratbench.scaffolds import family_parts

    if family_parts._current is None or not family_parts._current.answer_readers:
        from stratbench.families import standalone_registry

        family_parts.use_registry(standalone_registry())
    installed = family_parts._current
    yield
    family_parts.use_registry(installed)


@pytest.fixture
def chromium_profile(tmp_path):
    """An empty Chromium profile directory, removed after the test (a used profile is large)."""
    path = tmp_path / "chromium-profile"
    path.mkdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def _chromium(tmp_path_factory):
    """One headless Chromium per test process, driven over DevTools (None where none is installed)."""
    from stratbench.testing.browser import Chromium, find_chromium

    binary = find_chromium()
    if binary is None:
        yield None
        return
    profile = tmp_path_factory.mktemp("chromium-profile")
    with Chromium(binary, profile) as chromium:
        yield chromium
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser(_chromium):
    """A fresh page of the process's headless Chromium, in a browser context of its own (the test is skipped
    where no Chromium is installed)."""
    if _chromium is None:
        pytest.skip("needs Chromium (apt-get install chromium)")
    _chromium.new_page()
    return _chromium
