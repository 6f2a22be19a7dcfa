"""stratbench.games."""
