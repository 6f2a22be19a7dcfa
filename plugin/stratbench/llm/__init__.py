"""stratbench.llm."""
