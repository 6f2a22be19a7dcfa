"""GameBench's games (Costarelli et al. 2024), rules as shown to the models in its Appendix K.

GameBench conventions every game here follows: rules are a summary plus
sub-topics an agent expands with ``Explain(<heading>)`` (``Rules.topics``);
actions are predefined or open-ended; per-match scores lie in [0, 1] and sum
to 1 (draws allowed); in team games the same agent is duplicated per seat
without being told.
"""

GAME_IDS = (
    "air_land_sea", "santorini", "hive", "sea_battle", "codenames", "are_you_the_traitor",
    "pit", "two_rooms_and_a_boom", "arctic_scavengers",
)
"""The GameBench games stratbench implements (GameBench's own ids)."""

REASONING_CATEGORIES = {
    "Abstract Strategy": ("air_land_sea", "arctic_scavengers", "codenames", "hive", "santorini", "sea_battle"),
    "Non-Deterministic": ("arctic_scavengers", "two_rooms_and_a_boom", "sea_battle"),
    "Hidden Information": ("arctic_scavengers", "are_you_the_traitor", "two_rooms_and_a_boom"),
    "Language Communication": ("are_you_the_traitor", "codenames", "pit", "two_rooms_and_a_boom"),
    "Social Deduction": ("are_you_the_traitor", "two_rooms_and_a_boom"),
    "Cooperation": ("are_you_the_traitor", "codenames", "sea_battle", "two_rooms_and_a_boom"),
}
"""GameBench Table 3: the reasoning categories and the games that cover them (all nine), as published."""

EXTRA_GAME_IDS = ("atari_boxing",)
"""GameBench's games outside its data collection (Atari Boxing: in the benchmark, no published data)."""

EXTRA_CATEGORIES = {"Real-time (not in Table 3)": ("atari_boxing",)}
"""What the games outside Table 3 measure: Boxing is GameBench's one real-time game."""
