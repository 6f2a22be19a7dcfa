"""stratbench.agents."""
