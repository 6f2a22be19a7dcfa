"""GameBench Table 1 as published: its per-game columns, its ratings and the cells no agent's matches made."""

from __future__ import annotations

__all__ = ["PUBLISHED_TABLE_1", "PUBLISHED_UNPLAYED", "TABLE_1_COLUMNS"]


TABLE_1_COLUMNS = (
    ("ALS", "air_land_sea"), ("ARC", "arctic_scavengers"), ("AYT", "are_you_the_traitor"), ("CN", "codenames"),
    ("HV", "hive"), ("PT", "pit"), ("SN", "santorini"), ("TRB", "two_rooms_and_a_boom"), ("SB", "sea_battle"),
)
"""GameBench Table 1's per-game columns, in its header's order, with the game each abbreviation names."""

PUBLISHED_TABLE_1 = {
    # agent: (Overall, ALS, ARC, AYT, CN, HV, PT, SN, TRB, SB), each under the game its abbreviation names.
    "Random": (-0.50, -2.67, -0.79, -2.52, 0.37, 0.63, 0.05, -1.15, 0.48, 1.07),
    "Human": (1.76, 1.26, 1.70, 1.92, -0.89, 1.29, 1.25, 3.63, 0.45, 1.49),
    "GPT-3.5": (-0.48, -2.06, -2.51, -1.84, -0.01, 0.63, -0.41, 1.27, -0.05, 1.26),
    "GPT-3.5-CoT": (0.06, 0.45, -2.76, 2.42, 0.53, 0.63, 0.26, -0.44, 0.22, 0.03),
    "GPT-4": (-0.89, -0.65, 0.62, -2.73, -0.08, -4.42, -1.40, -1.31, -0.12, -7.38),
    "GPT-4-CoT": (0.16, 2.41, 1.22, -0.19, -0.53, 0.63, 0.62, -1.13, 0.27, 2.13),
    "GPT-4-RAP": (-0.10, 1.26, 2.51, 2.94, 0.62, 0.63, -0.37, -0.86, -1.25, 1.41),
}
"""GameBench Table 1 (Bradley–Terry ratings) as published, each value under its true game.

The paper's header (ALS ARC AYT CN HV PT SN TRB SB) labels columns whose data are, in
order, SB TRB AYT ALS SN HV CN ARC PT (its table script filled them in the order the games
first appear in ``matches.json``); the values here are moved under the games they
belong to, which the released ``matches.json`` and the paper's text confirm.
"""

PUBLISHED_UNPLAYED = {
    ("Human", "air_land_sea"), ("Human", "are_you_the_traitor"), ("Human", "two_rooms_and_a_boom"),
    ("Human", "arctic_scavengers"), ("GPT-4-RAP", "air_land_sea"), ("GPT-4-RAP", "hive"),
    ("GPT-4-RAP", "sea_battle"),
}
"""Cells of :data:`PUBLISHED_TABLE_1` whose agent played no match of the game (a prior-only rating)."""
