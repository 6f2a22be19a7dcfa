"""Repository defaults for stratbench runs.

Cassettes live in ``cassettes/`` and reports in ``reports/latest`` (set as
ini options in pyproject.toml); this file only makes sure model libraries
never reach the network at import.
"""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
