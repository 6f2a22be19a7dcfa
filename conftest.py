"""Repository defaults for stratbench runs.

Cassettes live in ``cassettes/`` and reports in ``reports/latest`` (set as
ini options in pyproject.toml); this file makes sure model libraries never
reach the network at import, and picks xdist's work stealing under ``-n``.
"""

import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config):
    """Under ``-n`` without a ``--dist`` of the user's, an idle worker takes queued items from a busy one.

    A few long matches (or tests) at the end of the queue then no longer leave
    the other workers waiting. Set here rather than as ``--dist=worksteal`` in
    ``addopts``, which made every run without xdist (``-p no:xdist``) a usage error.
    """
    option = config.option
    if getattr(option, "numprocesses", None) and getattr(option, "dist", None) == "no" \
            and not getattr(option, "distload", False):
        option.dist = "worksteal"
    return (yield)
