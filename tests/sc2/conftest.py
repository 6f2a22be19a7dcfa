"""The SC2 tests need pysc2 (``pip install 'pytest-stratbench[sc2]'``); without it they are skipped."""

import pytest


@pytest.fixture(scope="session")
def pysc2():
    """Returns pysc2's modules (with the compat fixes), or skips with the install hint."""
    from stratbench.games.sc2.pysc2_compat import PySC2Unavailable, import_pysc2

    try:
        return import_pysc2()
    except PySC2Unavailable as error:
        pytest.skip(str(error))
