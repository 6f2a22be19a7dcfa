"""stratbench.report."""
