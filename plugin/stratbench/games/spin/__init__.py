"""SPIN-Bench: Tic-Tac-Toe, Connect Four, chess, Hanabi, Diplomacy, PDDL planning and the probes."""
