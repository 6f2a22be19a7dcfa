"""stratbench.core."""
