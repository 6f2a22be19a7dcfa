"""stratbench.scaffolds."""
