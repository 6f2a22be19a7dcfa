"""stratbench.testing."""
