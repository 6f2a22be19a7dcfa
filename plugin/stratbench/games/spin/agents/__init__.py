"""SPIN-Bench's agents: the solvers and engines, Hanabi's and Diplomacy's baselines, the planners."""
