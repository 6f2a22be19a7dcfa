"""The memorisation gap section on hand-made records: means, paired differences, intervals, verdicts, counts."""

from __future__ import annotations

import pytest

from stratbench.report.analysis import analyse
from stratbench.report.memorisation import ALL_GAMES, memorisation, unrenamed_games
from stratbench.report.render import render_html, render_markdown
from stratbench.report.scaffolds import paired_difference, scaffolds

MODEL = "openai/m+direct"
TAGS = {"mystery:7": "obf-mystery-s7", "random:0": "obf-random-s0"}


def _sides(seat, opponent, scaffold="direct"):
    model = {"agent": f"openai/m+{scaffold}", "model": "openai/m", "scaffold": scaffold, "players": [seat]}
    if opponent is None:
        return [model]
    other = {"agent": opponent, "model": None, "scaffold": None, "players": [1 - seat]}
    return [model, other] if seat == 0 else [other, model]


def _record(game, variant, seed, score, renaming=None, *, seat=0, opponent=None, status="scored", scaffold="direct"):
    sides = _sides(seat, opponent, scaffold)
    scores = [score] if opponent is None else ([score, 1 - score] if seat == 0 else [1 - score, score])
    options = {"obfuscation": renaming, "obfuscation_tag": TAGS[renaming]} if renaming else {}
    match_id = f"{game}-{variant}-{seed}-{seat}-{opponent}-{scaffold}-{TAGS.get(renaming, '')}"
    record = {"type": "match", "status": status, "match_id": match_id, "test_id": match_id, "game": game,
              "variant": variant, "seed": seed, "sides": sides, "subject": seat, "game_options": options,
              "score_range": [0.0, 1.0], "illegal": [0] * len(sides), "fallbacks": [0] * len(sides),
              "decisions": [3] * len(sides), "turns": 6, "terminal": ""}
    if status == "scored":
        record.update(scores=scores, score_sum=None if opponent is None else 1.0)
    else:
        record.update(scores=None, reason="x")
    return record


def _records():
    records = [_record("planning", f"blocksworld/p0{i}", 0, 1.0) for i in range(1, 7)]
    records += [_record("planning", f"blocksworld/p0{i}", 0, 1.0 if i == 6 else 0.0, "mystery:7")
                for i in range(1, 7)]
    records.append(_record("planning", "blocksworld/p07", 0, 1.0, "mystery:7"))  # no original: unpaired
    records.append(_record("planning", "blocksworld/p01", 0, 0.0, "random:0"))
    for i, score in enumerate((1.0, 0.0, 1.0, 0.0, 1.0), 1):
        records.append(_record("planning", f"logistics/p0{i}", 0, score))
        records.append(_record("planning", f"logistics/p0{i}", 0, score, "mystery:7"))
    records.append(_record("tictactoe", None, 0, 1.0, opponent="minimax"))
    records.append(_record("tictactoe", None, 0, 0.5, "mystery:7", opponent="minimax"))
    records.append(_record("tictactoe", None, 0, 0.0, "mystery:7", seat=1, opponent="minimax"))  # other seat
    records.append(_record("chess", None, 0, 1.0, opponent="random"))  # never renamed: no row
    return records


UNSCORED = [_record("planning", "blocksworld/p08", 0, 0.0, "mystery:7", status="errored"),
            _record("planning", "logistics/p06", 0, 0.0, status="skipped")]


def _rows():
    section = memorisation(_records(), unscored=UNSCORED)
    assert section is not None and section["title"] == "Memorisation gap"
    return section, {(row[1], row[2]): row for row in section["rows"]}


def _interval(differences):
    _, low, high = paired_difference(differences)
    return f"[{low:.3f}, {high:.3f}]"


def test_each_renaming_is_paired_with_its_originals_per_agent_and_domain():
    section, rows = _rows()
    assert section["columns"][4:12] == ["matches", "errored", "skipped", "mean score", "pairs",
                                        "Δ renamed − original", "95% interval", "verdict"]
    assert sorted(rows) == [
        (ALL_GAMES, "obf-mystery-s7"), (ALL_GAMES, "obf-random-s0"), (ALL_GAMES, "original"),
        ("planning: blocksworld", "obf-mystery-s7"), ("planning: blocksworld", "obf-random-s0"),
        ("planning: blocksworld", "original"), ("planning: logistics", "obf-mystery-s7"),
        ("planning: logistics", "original"), ("tictactoe", "obf-mystery-s7"), ("tictactoe", "original"),
    ]
    assert all(row[0] == MODEL for row in rows.values())
    assert rows[("planning: blocksworld", "original")][2:] == ["original", "", 6, 0, 0, 1.0, None, None, None, None]
    mystery = rows[("planning: blocksworld", "obf-mystery-s7")]
    assert mystery[3:8] == ["mystery:7", 7, 1, 0, pytest.approx(2 / 7)]  # p01-p05 0, p06 and p07 1; p08 errored
    assert mystery[8] == 6 and mystery[9] == pytest.approx(-5 / 6)  # p07 has no original to pair with
    assert mystery[10] == _interval([-1.0] * 5 + [0.0])
    low, high = (float(x) for x in mystery[10].strip("[]").split(", "))
    assert high < 0 and mystery[11] == "gap"
    # one pair: its interval has no width, and no verdict rests on it
    assert rows[("planning: blocksworld", "obf-random-s0")][3:] == [
        "random:0", 1, 0, 0, 0.0, 1, -1.0, "[-1.000, -1.000]", "too few pairs"]
    assert rows[("planning: logistics", "original")][4:8] == [5, 0, 1, pytest.approx(3 / 5)]  # p06 skipped
    assert rows[("planning: logistics", "obf-mystery-s7")][4:] == [
        5, 0, 0, pytest.approx(3 / 5), 5, 0.0, "[0.000, 0.000]", "no evidence of a gap"]
    # the renamed match in the other seat has no original in that seat: counted, not paired
    assert rows[("tictactoe", "obf-mystery-s7")][4:] == [2, 0, 0, 0.25, 1, -0.5, "[-0.500, -0.500]",
                                                         "too few pairs"]
    # the agent's row over all its renamed games (never chess, which it played original only): 12 originals
    # (one skipped), 14 renamed matches (one errored), 12 pairs
    assert [row[1] for row in section["rows"]][-3:] == [ALL_GAMES] * 3  # after the agent's per-game rows
    assert rows[(ALL_GAMES, "original")][4:8] == [12, 0, 1, pytest.approx(10 / 12)]
    mystery = rows[(ALL_GAMES, "obf-mystery-s7")]
    assert mystery[4:10] == [14, 1, 0, pytest.approx(5.5 / 14), 12, pytest.approx(-5.5 / 12)]
    assert mystery[10] == _interval([-1.0] * 5 + [0.0] * 6 + [-0.5]) and mystery[11] == "gap"
    assert rows[(ALL_GAMES, "obf-random-s0")][4:] == [1, 0, 0, 0.0, 1, -1.0, "[-1.000, -1.000]", "too few pairs"]


def test_the_all_games_row_scales_each_game_by_its_score_range():
    records = [_record("planning", f"blocksworld/p0{i}", 0, 1.0) for i in range(1, 4)]
    records += [_record("planning", f"blocksworld/p0{i}", 0, 0.0, "mystery:7") for i in range(1, 4)]
    for seed in range(3):  # a game scored 0-25: 20 -> 0.8 original, 5 -> 0.2 renamed
        original = _record("hanabi", "2p", seed, 20.0)
        renamed = _record("hanabi", "2p", seed, 5.0, "mystery:7")
        for record in (original, renamed):
            record["score_range"] = [0.0, 25.0]
        records += [original, renamed]
    section = memorisation(records)
    rows = {(row[1], row[2]): row for row in section["rows"]}
    assert rows[("hanabi", "obf-mystery-s7")][7:10] == [5.0, 3, -15.0]  # per game: its own scale
    mystery = rows[(ALL_GAMES, "obf-mystery-s7")]
    assert mystery[4] == 6 and mystery[7] == pytest.approx(0.1) and mystery[8] == 6
    assert mystery[9] == pytest.approx((-1.0 * 3 - 0.6 * 3) / 6)
    assert 0.0 <= rows[(ALL_GAMES, "original")][7] <= 1.0


def test_the_section_is_absent_without_a_renamed_record_and_names_unrenamed_games():
    originals = [r for r in _records() if not r["game_options"]]
    assert memorisation(originals, unscored=UNSCORED) is None
    assert unrenamed_games(_records()) == ["chess"]


def test_the_section_reaches_the_html_markdown_and_json_reports():
    data = analyse(_records() + UNSCORED, resamples=50, sections={"memorisation": memorisation})
    (section,) = [s for s in data["sections"] if s["name"] == "memorisation"]
    assert section["title"] == "Memorisation gap · default protocol"
    assert len(section["rows"]) == 10  # 7 per game or domain, 3 over all games
    markdown = render_markdown(data)
    assert "### Memorisation gap · default protocol" in markdown
    assert "| openai/m+direct | planning: blocksworld | obf-mystery-s7 | mystery:7 | 7 | 1 | 0 |" in markdown
    html = render_html(data)
    assert "Memorisation gap" in html and "no evidence of a gap" in html


def test_scaffolds_pair_a_renamed_match_with_renamed_matches_only():
    records = [_record("tictactoe", None, seed, 1.0, opponent="minimax", scaffold=scaffold)
               for seed in (0, 1) for scaffold in ("direct", "cot")]
    records += [_record("tictactoe", None, seed, 0.0, "mystery:7", opponent="minimax", scaffold=scaffold)
                for seed in (0, 1) for scaffold in ("direct", "cot")]
    section = scaffolds(records)
    (table,) = section["tables"]
    cot = next(row for row in table["rows"] if row[1] == "cot")
    assert cot[2:9] == [4, 0, 0, 0.5, 4, 0.0, "[0.000, 0.000]"]  # four matches, four pairs, no difference


def test_probes_are_listed_but_not_rated_so_ratings_match_a_run_without_them():
    originals = [_record("tictactoe", None, seed, score, seat=seed % 2, opponent="minimax")
                 for seed, score in enumerate((1.0, 0.0, 1.0, 0.5))]
    probes = [_record("tictactoe", None, seed, 0.0, "mystery:7", seat=seed % 2, opponent="minimax")
              for seed in range(4)]
    plain = analyse(originals, resamples=50)
    probed = analyse(originals + probes, resamples=50, sections={"memorisation": memorisation})
    assert probed["ratings"]["n_matches"] == plain["ratings"]["n_matches"] == [4, 4]
    assert probed["ratings"]["mean"] == plain["ratings"]["mean"]
    assert probed["average_scores"] == plain["average_scores"]
    assert probed["elo_by_game"] == plain["elo_by_game"]
    assert len(probed["matches"]) == 8 and probed["n_matches"] == 8  # listed all the same
    assert any("4 memorisation probe(s) (--obfuscate) are not rated" in note for note in probed["notes"])
    assert not any("memorisation probe" in note for note in plain["notes"])
