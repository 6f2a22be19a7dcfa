"""stratbench.planning."""
