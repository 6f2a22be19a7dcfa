"""SPIN-Bench's metrics: move quality against solvers, Hanabi, Diplomacy, negotiation, planning."""
