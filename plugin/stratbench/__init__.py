"""stratbench: strategic-reasoning benchmarks for LLM agents, run as a pytest plugin."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pytest-stratbench")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__"]
