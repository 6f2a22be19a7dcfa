"""stratbench.games.spin.planning."""
