"""SPIN-Bench Table 1's competitive columns from hand-made records, beside the paper's rows."""

from __future__ import annotations

import pytest
from report_records import record
from stratbench.report.analysis import analyse
from stratbench.report.render import render_markdown
from stratbench.games.spin.spin_table1 import PAPER_TABLE1, spin_table1

LLM = "openai/m+direct"


def _vs(solver, scores, game, *, llm_side=0, top3=None, moves=0, agent=LLM, protocol="default"):
    agents = (agent, solver) if llm_side == 0 else (solver, agent)
    seat_scores = scores if llm_side == 0 else scores[::-1]
    metrics = {} if top3 is None else {str(llm_side): {"moves": moves, "top3_share": top3},
                                       str(1 - llm_side): {"moves": moves, "top3_share": 1.0}}
    built = record(f"{agent}-{solver}-{len(str(scores))}", agents, seat_scores, game=game, subject=llm_side,
                   metrics=metrics)
    return {**built, "protocol": protocol}


def _records():
    return [
        _vs("minimax", (0.5, 0.5), "tictactoe"),
        _vs("minimax", (0.5, 0.5), "tictactoe", llm_side=1),
        _vs("minimax", (0.0, 1.0), "tictactoe"),
        _vs("minimax", (0.0, 1.0), "tictactoe", llm_side=1),
        _vs("c4solver", (0.0, 1.0), "connect4", top3=0.5, moves=4),
        _vs("c4solver", (0.0, 1.0), "connect4", llm_side=1, top3=1.0, moves=2),
        _vs("stockfish20", (0.5, 0.5), "chess", top3=0.9, moves=10),
        _vs("stockfish20", (0.0, 1.0), "chess", llm_side=1, top3=0.9, moves=10),
        _vs("stockfish0", (1.0, 0.0), "chess", top3=0.3, moves=10),
        _vs("stockfish0", (0.0, 1.0), "chess", llm_side=1, top3=0.6, moves=5),
        _vs("minimax", (0.5, 0.5), "tictactoe", agent="random"),
        record("llm-vs-random", (LLM, "random"), (1.0, 0.0), game="tictactoe"),  # not against a solver
    ]


def test_the_run_row_fills_every_column_it_has_games_for():
    section = spin_table1(_records())
    main, levels, _ = section["tables"]
    assert main["columns"] == ["agent", "source", "TTT_DR (%)", "C4_DR (%)", "CH_DR (%)", "C4_T3 (%)", "CH_T3 (%)",
                               "games", "errored", "skipped"]
    rows = {(row[0], row[1]): row[2:] for row in main["rows"]}
    ttt, c4, ch, c4_t3, ch_t3, games, errored, skipped = rows[(LLM, "run")]
    assert (games, errored, skipped) == (10, 0, 0)
    assert ttt == pytest.approx(50.0)  # 2 draws of 4
    assert c4 == pytest.approx(0.0)
    assert ch == pytest.approx(50.0)  # against level 20 only: 1 draw of 2
    assert c4_t3 == pytest.approx(100.0 * (0.5 * 4 + 1.0 * 2) / 6)
    assert ch_t3 == pytest.approx(100.0 * (0.3 * 10 + 0.6 * 5) / 15)  # level-0 games only
    assert rows[("random", "run")] == [100.0, None, None, None, None, 1, 0, 0]
    assert levels["rows"] == [
        [LLM, 0, 2, 0, 0, 50.0, 0.0, pytest.approx(40.0), 15],
        [LLM, 20, 2, 0, 0, 0.0, 50.0, pytest.approx(90.0), 20],
    ]


def test_the_papers_rows_are_beside_the_run_labelled_as_the_papers():
    rows = spin_table1(_records())["tables"][0]["rows"]
    paper = [row for row in rows if row[1] == "SPIN-Bench Table 1"]
    assert len(paper) == 11 == len(PAPER_TABLE1)
    assert paper[0] == ["o1", "SPIN-Bench Table 1", 70.0, 0.0, 0.0, 83.1, 45.9, None, None, None]
    assert ["Llama-3.3-70b", "SPIN-Bench Table 1", 0.0, 0.0, 0.0, 79.5, 25.4, None, None, None] in paper


def test_no_games_against_a_solver_no_section():
    assert spin_table1([record("x", ("a", "b"), (1.0, 0.0), game="tictactoe")]) is None


def test_the_report_shows_the_section_per_protocol_with_dashes_where_no_data():
    records = _records() + [_vs("stockfish0", (0.0, 1.0), "chess", top3=0.2, moves=5, protocol="paper")]
    data = analyse(records, sections={"spin_table1": spin_table1}, resamples=20)
    titles = [s["title"] for s in data["sections"]]
    assert titles == ["SPIN-Bench Table 1: competitive games · default protocol",
                      "SPIN-Bench Table 1: competitive games · paper protocol"]
    paper_run = [row for row in data["sections"][1]["tables"][0]["rows"] if row[1] == "run"]
    assert paper_run == [[LLM, "run", None, None, None, None, pytest.approx(20.0), 1, 0, 0]]
    markdown = render_markdown(data)
    assert "SPIN-Bench Table 1: competitive games · paper protocol" in markdown
    assert "| openai/m+direct | run | – | – | – | – | 20.00 | 1 | 0 | 0 |" in markdown


def test_every_column_and_the_avg_score_as_the_paper_computes_it():
    from stratbench.games.spin.spin_table1 import avg_score

    hanabi = [{**record(f"h{n}", (LLM,), (float(n * 2),), game="hanabi"), "variant": f"{n}p"} for n in (2, 3, 4, 5)]
    section = spin_table1(_records() + hanabi)
    full = section["tables"][-1]
    assert full["columns"][2:4] == ["Plan Acc (%)", "N-Step"] and full["columns"][-1] == "Avg. Score"
    rows = {(row[0], row[1]): row[2:] for row in full["rows"]}
    mine = rows[(LLM, "run")]
    assert mine[:2] == [None, None]  # no planning tasks in this run
    assert mine[7:11] == [4.0, 6.0, 8.0, 10.0]
    assert mine[11] is None  # Avg. Score needs all ten numbers
    # The paper's printed Avg. Score is reproduced by the formula within its rounding, for every row.
    paper = [row for key, row in rows.items() if key[1] == "SPIN-Bench Table 1"]
    assert len(paper) == 11
    for row in paper:
        assert avg_score([row[0], *row[2:11]]) == pytest.approx(row[11], abs=0.11)
    assert avg_score([50.0] * 6 + [12.5] * 4) == pytest.approx(50.0)
    assert avg_score([50.0] * 6 + [None] * 4) is None
