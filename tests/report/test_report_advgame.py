"""The AdvGameBench report section on hand-made matches: Table 1's shape, process metrics, FMA, the radar."""

import re

from stratbench.core.revision import RevisionMatch, RoundRecord
from stratbench.core.runner import MatchOutcome
from stratbench.metrics.advgame import match_metrics
from stratbench.games.advgame.report import PAPER_TABLE_1, advgame
from stratbench.report.svg import radar_chart, table_chart

S1, S2 = {"invaders": [{"name": "FireLizard"}]}, {"invaders": [{"name": "TideLord"}]}
D1, D2 = {"defenders": [{"name": "Sapling"}]}, {"defenders": [{"name": "King"}]}


def _record(match_id, invader, defender, first_reviser, rows):
    """rows: (winner, reviser, invader strategy, defender strategy) per round."""
    match = RevisionMatch(sides=("invader", "defender"), budgets={"invader": 20, "defender": 20},
                          first_reviser=first_reviser,
                          initial_attempts={"invader": [{"cost": 10, "violations": []}],
                                            "defender": [{"cost": 30, "violations": ["cost 30 exceeds budget 20"]},
                                                         {"cost": 10, "violations": []}]})
    match.rounds = [RoundRecord(n, {"invader": s, "defender": d}, {"invader": 10, "defender": 10},
                                {"invader": [], "defender": []}, winner, "simulation", {}, reviser)
                    for n, (winner, reviser, s, d) in enumerate(rows, start=1)]
    outcome = MatchOutcome([0.5, 0.5], "", len(rows), {}, {}, {}, None, [], 0.0, extra={"advgame": match.to_dict()})
    metrics = {str(p): v for p, v in match_metrics(None, outcome, 0).items()}
    return {"match_id": match_id, "game": "battle_card", "status": "scored", "advgame": match.to_dict(),
            "sides": [{"agent": invader}, {"agent": defender}], "metrics": metrics}


def _records():
    first = _record("m1", "A", "B", "invader", [("defender", "invader", S1, D1), ("invader", "defender", S2, D1),
                                                ("invader", "invader", S2, D2), ("defender", None, S2, D2)])
    second = _record("m2", "A", "B", "defender", [("defender", "defender", S1, D1), ("defender", "invader", S1, D1),
                                                  ("defender", "defender", S1, D1), ("defender", None, S1, D1)])
    return [first, second]


def _table(section, title):
    return next(t for t in section["tables"] if t["title"].startswith(title))


def test_table_1_pools_each_agents_rounds_per_game_and_averages_the_games_played():
    section = advgame(_records())
    rows = {row[0]: row for row in _table(section, "Table 1 shape")["rows"]}
    # A: won 2 of 8 rounds; its one turn after a loss that changed anything (m1 round 1) of two such turns
    # (m2 round 2 kept S1); that change won the next round. B: won 6 of 8; revised after its m1 round-2 loss
    # (D1 -> D2) and lost again; in m2 it never changed.
    assert rows["A"] == ["A", None, None, None, 25.0, 50.0, 100.0, None, None, None, 25.0, 50.0, 100.0, 2, 0, 0]
    assert rows["B"] == ["B", None, None, None, 75.0, 100.0, 0.0, None, None, None, 75.0, 100.0, 0.0, 2, 0, 0]
    process = {(row[0], row[1]): row for row in _table(section, "Process metrics")["rows"]}
    a = process[("A", "BCG")]
    assert a[2:5] == [2, 0, 0]  # matches, errored, skipped
    assert a[6] == 0.0 and a[7] == 0.0 and a[8] == 0.0  # init-win, OBR, RVR
    assert a[9] == 50.0  # FMA WR: 0.5 when revising first (m1), 0.0 when second (m2)
    b = process[("B", "BCG")]
    assert b[6] == 100.0 and b[8] == 50.0  # B won both first rounds; one of its two initial attempts was over budget
    assert b[9] == 50.0  # B revised second in m1 (WR 0.5) and first in m2 (WR 1.0)


def test_the_radar_inverts_orr_and_obr_and_gives_a_shared_slope_the_middle():
    radar = _table(advgame(_records()), "Radar")
    rows = {row[0]: row[1:] for row in radar["rows"]}
    assert radar["columns"] == ["agent", "WR", "CSR", "slope", "1-ORR", "1-OBR"]
    assert rows["A"][2] == rows["B"][2] == 0.5  # both slopes are 0 (the rounds won are symmetric in time)
    assert rows["A"][0] == 0.25 and rows["A"][1] == 1.0 and rows["A"][3] == 0.5 and rows["A"][4] == 1.0
    assert radar["chart"]["kind"] == "radar" and [s["name"] for s in radar["chart"]["series"]] == ["A", "B"]
    svg = table_chart(radar)
    assert svg.startswith('<svg class="radar-chart"') and svg.count("<polygon") == 4 + 2  # four rings, two agents
    assert "<script" not in svg


def test_the_papers_table_1_is_shown_as_published_and_labelled():
    table = _table(advgame(_records()), "The paper's Table 1")
    assert table["columns"][0] == "model (paper)" and len(table["rows"]) == 12
    o3_mini = next(row for row in table["rows"] if row[0] == "ChatGPT-o3-mini")
    assert o3_mini[1:] == [63.3, 25.9, 57.1, 74.2, 31.6, 100.0, 86.7, 9.0, 100.0, 74.7, 24.5, 78.6]
    assert len(PAPER_TABLE_1[0]) == 13


def test_no_advgame_match_means_no_section():
    assert advgame([{"game": "tictactoe", "status": "scored", "sides": []}]) is None


def test_a_radar_polygon_puts_each_value_on_its_axis():
    svg = radar_chart(["a", "b", "c"], [{"name": "m", "values": [1.0, 0.5, 0.0]}], size=360)
    shape = re.search(r'<polygon points="([^"]+)" fill="#1d3557"', svg).group(1)
    assert shape == "180.0,48.0 237.2,213.0 180.0,180.0"  # radius 132 from (180, 180): top, 30° below east, centre
    assert radar_chart(["a", "b"], [{"name": "m", "values": [1, 1]}]) == ""
