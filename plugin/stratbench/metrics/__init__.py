"""stratbench.metrics."""
