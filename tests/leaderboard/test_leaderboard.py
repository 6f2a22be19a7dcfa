"""`stratbench leaderboard`: runs pooled where their settings agree, apart (saying why) where not; each pool
ranked; history drawn where there is one; every link inside the site folder; values."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from board_runs import DAY, MODEL_USD, T0, run_records, three_runs, write_run
from stratbench.cli import main
from stratbench.leaderboard.board import build_board, ranking
from stratbench.leaderboard.cost import usd_per_point
from stratbench.leaderboard.history import lineages
from stratbench.leaderboard.plots import time_ticks
from stratbench.leaderboard.pooling import differences, pool_runs
from stratbench.leaderboard.runs import collect_runs

M1, M2 = "openai/m1+direct", "openai/m2+direct"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    return three_runs(tmp_path_factory.mktemp("runs"))


@pytest.fixture(scope="module")
def site(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    status = main(["leaderboard", str(runs["seed0"].parent), "--out", str(out), "--baseline", "random",
                   "--map", f"{M2}={M1}", "--resamples", "300"])
    assert status == 0
    return out


def _counts(run_dir: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    for line in (run_dir / "results.jsonl").read_text().splitlines():
        for side in json.loads(line)["sides"]:
            counts[side["agent"]] = counts.get(side["agent"], 0) + 1
    return counts


def test_a_folder_is_searched_and_runs_come_oldest_first(runs):
    found = collect_runs([runs["seed0"].parent])
    assert [run.label for run in found] == ["20261118T000000-aaaaaa", "20261119T000000-bbbbbb",
                                            "20261120T000000-cccccc"]
    assert [run.date for run in found] == ["2026-11-18 11:06", "2026-11-19 11:06", "2026-11-20 11:06"]
    assert all(run.report_dir == path for run, path in zip(found, runs.values()))
    assert len(found[0].pages) == 24  # every match's page as the report linked it
    assert "http://***@127.0.0.1:9/v1" in found[0].command_line and "SECRET" not in " ".join(found[0].command_line)
    again = collect_runs([runs["seed0"], runs["seed0"] / "results.jsonl", runs["seed0"] / "results.json"])
    assert [run.label for run in again] == ["20261118T000000-aaaaaa"]  # one run, however it is named


def test_two_seeds_of_the_same_settings_pool_and_the_paper_run_stands_apart(runs):
    found = collect_runs([runs["seed0"].parent])
    assert differences(found[0], found[1]) == []
    assert differences(found[0], found[2]) == [
        "protocol of connect4: default vs paper",
        "protocol of tictactoe: default vs paper",
        'game options of connect4: {} vs {protocol="paper"}',
        'game options of tictactoe: {} vs {protocol="paper"}',
        'rules of connect4: {fallback="forfeit", illegal_tolerance=10} vs {fallback="forfeit", illegal_tolerance=11}',
        'rules of tictactoe: {fallback="forfeit", illegal_tolerance=10} vs {fallback="forfeit", illegal_tolerance=11}',
    ]
    pools = pool_runs(found)
    assert [[run.label for run in pool.runs] for pool in pools] == [
        ["20261118T000000-aaaaaa", "20261119T000000-bbbbbb"], ["20261120T000000-cccccc"]]
    assert pools[1].apart[0][0] == "pool 1" and pools[1].apart[0][1][0] == "protocol of connect4: default vs paper"


def test_a_shared_match_with_another_settings_hash_is_not_pooled(tmp_path):
    first = write_run(tmp_path / "a", run_records(M1, range(0, 2), run_id="20261118T000000-a", started=T0),
                      report=False)
    changed = run_records(M1, range(0, 2), run_id="20261119T000000-b", started=T0 + DAY)
    changed[0]["settings_hash"] = "0123456789abcdef"  # the same match id and seed, played with other settings
    second = write_run(tmp_path / "b", changed, report=False)
    found = collect_runs([first, second])
    (why,) = differences(found[0], found[1])
    assert why.startswith(f"settings hash of 1 shared match(es) (e.g. {changed[0]['match_id']}, seed 0: ")
    assert why.endswith(" vs 0123456789abcdef)")
    assert len(pool_runs(found)) == 2


def test_another_token_limit_on_the_command_line_is_not_pooled_without_shared_matches(tmp_path):
    first = write_run(tmp_path / "a", run_records(M1, range(0, 2), run_id="20261118T000000-a", started=T0),
                      options=("--stratbench-max-tokens", "256"))
    second = write_run(tmp_path / "b", run_records(M1, range(2, 4), run_id="20261119T000000-b", started=T0 + DAY),
                       options=("--stratbench-max-tokens=1024", "--temperature", "0"))
    found = collect_runs([first, second])
    assert differences(found[0], found[1]) == ["--stratbench-max-tokens on the command line: 256 vs 1024",
                                               "--temperature on the command line: default vs 0"]
    same = write_run(tmp_path / "c", run_records(M1, range(4, 6), run_id="20261120T000000-c", started=T0 + 2 * DAY),
                     options=("--stratbench-max-tokens", "256"))
    assert differences(found[0], collect_runs([same])[0]) == []


def test_pooled_counts_are_sums_and_ratings_lie_in_their_intervals(runs):
    board = build_board(collect_runs([runs["seed0"].parent]), resamples=300, baseline="random")
    pooled = board.pooled["pool 1"]
    seed0, seed1 = _counts(runs["seed0"]), _counts(runs["seed1"])
    assert pooled["n_matches"] == 24 + 24
    ratings = pooled["ratings"]
    for agent in ("random", "minimax"):
        assert ratings["n_matches"][ratings["agents"].index(agent)] == seed0[agent] + seed1[agent] == 32
    assert ratings["n_matches"][ratings["agents"].index(M1)] == seed0[M1] == 16
    for mean, low, high in zip(ratings["mean"], ratings["low"], ratings["high"]):
        assert low <= mean <= high
    assert set(ratings["agents"]) == {M1, M2, "random", "minimax"}
    assert board.pooled["pool 2"]["n_matches"] == 24


def test_cost_per_rating_point_over_the_baseline(runs):
    board = build_board(collect_runs([runs["seed0"].parent]), resamples=300, baseline="random")
    rows = {row["agent"]: row for row in board.costs["pool 1"]}
    ratings = board.pooled["pool 1"]["ratings"]
    rating = dict(zip(ratings["agents"], ratings["mean"]))
    m1 = rows[M1]
    assert m1["matches"] == 16 and m1["usd_per_match"] == pytest.approx(MODEL_USD)
    assert m1["tokens_per_match"] == 900 and m1["wall_s_per_match"] == pytest.approx(0.5)
    assert rows["random"]["usd_per_match"] == 0 and rows["random"]["usd_per_point"] is None
    assert m1["gain"] == pytest.approx(rating[M1] - rating["random"]) and m1["gain"] > 0
    assert m1["usd_per_point"] == pytest.approx(MODEL_USD / (rating[M1] - rating["random"]))
    assert rows["minimax"]["usd_per_point"] == pytest.approx(0.0)  # free and better than random
    assert usd_per_point(0.03, 1.0, 0.01, 1.5) is None  # below the baseline: no gain to pay for
    assert usd_per_point(0.03, 2.0, 0.01, 1.5) == pytest.approx(0.04)


def test_an_upgrade_map_draws_one_line(runs):
    assert lineages(["a", "b", "c", "x"], {"c": "b", "b": "a"}) == [["a", "b", "c"], ["x"]]
    board = build_board(collect_runs([runs["seed0"].parent]), resamples=300, agent_map={M2: M1})
    line = next(line for line in board.lines if line.agents == [M1, M2])
    assert line.name == f"{M1} → {M2}"
    assert [(p["run"], p["agent"]) for p in line.points] == [
        ("20261118T000000-aaaaaa", M1), ("20261119T000000-bbbbbb", M2), ("20261120T000000-cccccc", M2)]
    assert [p["games"]["tictactoe"] for p in line.points] == [pytest.approx(3.5 / 8)] * 3
    random_line = next(line for line in board.lines if line.agents == ["random"])
    assert len(random_line.points) == 3


def _cell_text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def _ranking(index: str, pool: str) -> list[list[str]]:
    """A pool's ranked table as cell texts: rank, agent, rating, interval, plot (empty), matches."""
    table = re.search(rf'<table class="ranking" id="ranking-{pool}">(.*?)</table>', index, re.DOTALL).group(1)
    return [[_cell_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL) if "<td" in row]


def test_the_index_ranks_each_pool_apart_and_folds_what_keeps_them_apart(site, runs):
    index = (site / "index.html").read_text()
    assert 'class="warning' not in index  # no alarm boxes before the ratings
    differences = re.search(r'<details class="pool-differences"[^>]*>(.*?)</details>', index, re.DOTALL).group(1)
    assert _cell_text(re.search(r"<summary>(.*?)</summary>", differences).group(1)) == \
        "Not pooled: 2 pools, rated apart because protocol, game options, rules differ"
    (item,) = re.findall(r'<li class="pool-difference">(.*?)</ul></li>', differences, re.DOTALL)
    assert _cell_text(item).startswith("pool 2 (run 20261120T000000-cccccc) differs from pool 1 in:")
    assert "<li>protocol of connect4: default vs paper</li>" in item
    assert index.index('id="pool-differences"') < index.index('id="ranking-pool-1"') < index.index(
        'id="ranking-pool-2"') < index.index('id="cost"')  # stacked, one after the other
    first, paper = _ranking(index, "pool-1"), _ranking(index, "pool-2")
    assert [row[0] for row in first] == ["1", "2", "3", "4"] and [row[0] for row in paper] == ["1", "2", "3"]
    assert {row[1] for row in first} == {"minimax", M1, M2, "random"}
    assert [row[1] for row in paper] == ["minimax", M2, "random"]  # only the agents this pool rated
    for rows in (first, paper):
        ratings = [float(row[2]) for row in rows]
        assert ratings == sorted(ratings, reverse=True)
        for row in rows:
            low, high = map(float, re.fullmatch(r"\[([-+.\d]+), ([-+.\d]+)\]", row[3]).groups())
            assert low <= float(row[2]) <= high
    assert {row[1]: row[5] for row in first}["random"] == "32" and {row[1]: row[5] for row in paper}["random"] == "16"
    assert index.count('<svg class="interval-plot"') == len(first) + len(paper)
    runs_table = re.search(r'<table id="runs-table">.*?</table>', index, re.DOTALL).group(0)
    reports = re.findall(r'<a href="([^"]+)">report.html</a>', runs_table)
    assert reports == [f"runs/{label}/report.html" for label in
                       ("20261118T000000-aaaaaa", "20261119T000000-bbbbbb", "20261120T000000-cccccc")]
    for href, path in zip(reports, runs.values(), strict=True):  # copies of the runs' own reports
        assert (site / href).read_bytes() == (path / "report.html").read_bytes()
    assert "http://***@127.0.0.1:9/v1" in runs_table and "SECRET" not in index
    assert "0.1.0" in runs_table and "1.106.2" in runs_table
    assert "<script" not in index


def _links(page: Path) -> list[str]:
    return [html.unescape(href) for href in re.findall(r'href="([^"]+)"', page.read_text())]


def test_every_link_resolves_to_a_file_inside_the_site_folder(site, runs):
    """The site folder is published alone: each run's report and match pages are copied into it."""
    root = site.resolve()
    pages = [site / "index.html", site / "history.html", *sorted((site / "models").glob("*.html"))]
    copies = sorted(site.glob("runs/*/report.html")) + sorted(site.glob("runs/*/transcripts/*.html"))
    assert len(pages) == 6 and len(copies) == 3 + 72
    for page in pages + copies:
        for href in _links(page):
            assert not href.startswith(("/", "http", "file:")), href
            target = (page.parent / href.split("#")[0]).resolve() if not href.startswith("#") else page.resolve()
            assert target.is_file() and target.is_relative_to(root), f"{page.name}: {href}"
    model_page = next(p for p in (site / "models").glob("openai_m1*.html"))
    replays = re.findall(r'class="replay-link" href="([^"]+)"', model_page.read_text())
    assert len(replays) == 16
    for replay in replays:
        copy = (model_page.parent / html.unescape(replay)).resolve()
        assert copy.parent == root / "runs" / "20261118T000000-aaaaaa" / "transcripts"
        assert copy.read_bytes() == (runs["seed0"] / "transcripts" / copy.name).read_bytes()


@pytest.mark.parametrize("option", [("--reasoning-effort", "high"), ("--answer-format=tools",),
                                    ("--thinking-budget", "1024")], ids=lambda option: option[0].split("=")[0])
def test_an_option_the_agent_label_carries_does_not_split_pools(tmp_path, option):
    """--reasoning-effort, --answer-format and --thinking-budget name another agent: rated beside, not apart."""
    label = {"--reasoning-effort": "effort=high", "--answer-format": "answers=tools",
             "--thinking-budget": "thinking=1024"}[option[0].split("=")[0]]
    plain = write_run(tmp_path / "a", run_records(M1, range(1), run_id="20261118T000000-a", started=T0))
    other = write_run(tmp_path / "b", run_records(f"{M1}({label})", range(1, 2), run_id="20261119T000000-b",
                                                  started=T0 + DAY), options=option)
    found = collect_runs([plain, other])
    assert found[1].command_line[-len(option):] == list(option)
    assert differences(found[0], found[1]) == []
    (pool,) = pool_runs(found)
    assert {side["agent"] for record in pool.records for side in record["sides"]} == \
        {M1, f"{M1}({label})", "minimax", "random"}


def _run_ticks(chart: str) -> list[str]:
    """A runs chart's x-axis labels."""
    return [html.unescape(tick) for tick in
            re.findall(r'text-anchor="middle" font-size="10" fill="#555"><title>[^<]*</title>([^<]*)</text>', chart)]


def test_history_draws_only_lines_with_two_runs_on_an_axis_of_distinct_labels(tmp_path):
    """Two runs in one minute and one a day later: M1 (two runs) is drawn, M2 (one run) is listed, not drawn."""
    folders = [write_run(tmp_path / "a", run_records(M1, range(2), run_id="20261118T000000-a", started=T0),
                         report=False),
               write_run(tmp_path / "b", run_records(M1, range(2, 4), run_id="20261118T000010-b", started=T0 + 10),
                         report=False),
               write_run(tmp_path / "c", run_records(M2, range(4, 6), run_id="20261119T000000-c", started=T0 + DAY),
                         report=False)]
    out = tmp_path / "site"
    assert main(["leaderboard", *map(str, folders), "--out", str(out), "--resamples", "30"]) == 0
    history = (out / "history.html").read_text()
    sections = re.findall(r'<section class="history-line">(.*?)</section>', history, re.DOTALL)
    drawn = [_cell_text(re.search(r"<h2>(.*?)</h2>", section).group(1)) for section in sections]
    assert drawn == ["minimax", M1, "random"]
    assert _cell_text(re.search(r'<p class="muted single-run">(.*?)</p>', history).group(1)) == \
        f"One run so far: {M2}."
    for section in sections:
        for chart in re.findall(r'<svg class="runs-chart".*?</svg>', section, re.DOTALL):
            assert chart.count('class="run-point"') >= 2
            ticks = _run_ticks(chart)
            assert ticks == ["2026-11-18 11:06:40", "2026-11-18 11:06:52", "2026-11-19"]
    m2_page = next((out / "models").glob("openai_m2*.html")).read_text()
    assert "runs-chart" not in m2_page and f"One run so far: {html.escape(M2)}." in m2_page


def test_run_ticks_are_distinct_and_a_ranking_counts_from_one():
    when = [datetime(2026, 11, 18, 6, 54, tzinfo=UTC), datetime(2026, 11, 19, 6, 54, tzinfo=UTC),
            datetime(2026, 11, 19, 9, 0, tzinfo=UTC), None, None]
    assert time_ticks(when) == ["2026-11-18", "2026-11-19 06:54", "2026-11-19 09:00", "unknown", "unknown (2)"]
    assert time_ticks([when[0], when[0]]) == ["2026-11-18 06:54:00", "2026-11-18 06:54:00 (2)"]
    rows = ranking({"agents": ["a", "b", "c", "d"], "mean": [0.1, 0.5, None, 0.1], "low": [0, 0.2, None, 0],
                    "high": [0.3, 0.9, None, 0.2], "n_matches": [4, 4, 0, 4]})
    assert [(row["rank"], row["agent"]) for row in rows] == [(1, "b"), (2, "a"), (3, "d")]


def test_a_match_page_is_found_by_its_transcript_name_when_results_json_names_none(tmp_path, runs):
    run_dir = tmp_path / "run"
    write_run(run_dir, run_records(M1, range(0, 1), run_id="20261118T000000-a", started=T0))
    (run_dir / "results.json").unlink()  # e.g. a report written by another version, or lost
    (run,) = collect_runs([run_dir])
    assert len(run.pages) == 6
    assert all((run_dir / page).is_file() and page.startswith("transcripts/") for page in run.pages.values())


def test_a_result_file_alone_says_no_report(tmp_path, runs):
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "results.jsonl").write_text((runs["seed0"] / "results.jsonl").read_text())
    out = tmp_path / "site"
    assert main(["leaderboard", str(alone / "results.jsonl"), "--out", str(out), "--resamples", "50"]) == 0
    index = (out / "index.html").read_text()
    assert "no report (results.jsonl only)" in index
    page = next((out / "models").glob("openai_m1*.html")).read_text()
    assert "no report (results.jsonl only: no match pages)" in page and "replay-link" not in page


def test_a_results_json_alone_is_a_run(tmp_path, runs):
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "results.json").write_text((runs["paper"] / "results.json").read_text())
    (run,) = collect_runs([alone])
    assert len(run.scored) == 24 and run.protocols == ["paper"] and run.settings_hashes == []
    board = build_board([run], resamples=50, baseline="random")
    assert {row["agent"]: row["usd_per_match"] for row in board.costs["pool 1"]}[M2] == pytest.approx(MODEL_USD)


def _refused(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_bad_inputs_get_one_line_and_exit_2(tmp_path, runs, capsys):
    out = str(tmp_path / "site")
    assert _refused(["leaderboard", str(tmp_path / "missing"), "--out", out], capsys) == \
        f"stratbench leaderboard: {tmp_path / 'missing'}: no such file or directory"
    (tmp_path / "empty").mkdir()
    assert _refused(["leaderboard", str(tmp_path / "empty"), "--out", out], capsys) == \
        f"stratbench leaderboard: {tmp_path / 'empty'}: no results.jsonl or results.json found in it or below it"
    bad = tmp_path / "bad" / "results.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"match_id": "x"\n{}\n')
    assert _refused(["leaderboard", str(bad.parent), "--out", out], capsys) == \
        f"stratbench leaderboard: {bad}:1: not JSON (Expecting ',' delimiter)"
    not_report = tmp_path / "other.json"
    not_report.write_text('{"rows": []}')
    assert _refused(["leaderboard", str(not_report), "--out", out], capsys) == \
        f"stratbench leaderboard: {not_report}: not a stratbench results.json (no 'matches' list)"
    newer = tmp_path / "newer" / "results.jsonl"
    newer.parent.mkdir()
    newer.write_text(json.dumps({**json.loads((runs["seed0"] / "results.jsonl").read_text().splitlines()[0]),
                                 "version": 99}) + "\n")
    assert _refused(["leaderboard", str(newer), "--out", out], capsys) == (
        f"stratbench leaderboard: {newer}: record 1: field 'version': 99 is newer than this stratbench reads (1); "
        "upgrade stratbench to read it")
    assert _refused(["leaderboard", str(runs["seed0"]), "--out", out, "--baseline", "nobody"], capsys) == (
        f"stratbench leaderboard: --baseline nobody: no run played this agent (known: minimax, {M1}, random)")
    assert _refused(["leaderboard", str(runs["seed0"]), "--out", out, "--map", "x"], capsys) == \
        "stratbench leaderboard: --map 'x': expected NEW=OLD"
    assert _refused(["leaderboard", str(runs["seed0"]), "--out", out, "--map", "a=b"], capsys) == (
        f"stratbench leaderboard: --map a=b: no run played either agent (known: minimax, {M1}, random)")
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert _refused(["leaderboard", str(runs["seed0"]), "--out", str(a_file)], capsys) == \
        f"stratbench leaderboard: --out {a_file}: is a file, not a directory"
    assert not (tmp_path / "site").exists()  # nothing half-written


def test_a_run_with_memorisation_probes_pools_with_one_without_them(tmp_path):
    plain = run_records(M1, range(0, 2), run_id="20261118T000000-a", started=T0)
    probed = run_records(M1, range(2, 4), run_id="20261119T000000-b", started=T0 + DAY)
    probes = []
    for record in probed[:3]:  # the same matches once more, renamed: their own ids and options
        probe = json.loads(json.dumps(record))
        probe["match_id"] = record["match_id"].replace("]", "-obf-mystery-s7]")
        probe["game_options"] = {"obfuscation": "mystery:7", "obfuscation_tag": "obf-mystery-s7"}
        probes.append(probe)
    first = write_run(tmp_path / "a", plain, report=False)
    second = write_run(tmp_path / "b", probed + probes, report=False)
    found = collect_runs([first, second])
    assert differences(found[0], found[1]) == []
    (pool,) = pool_runs(found)
    assert len(pool.records) == len(plain) + len(probed) + len(probes)
    # a probe under other options than another run's probe of the same renaming still keeps them apart
    other = [json.loads(json.dumps(p)) for p in probes]
    for probe in other:
        probe["game_options"]["obfuscation"] = "mystery:7"
        probe["game_options"]["max_turns"] = 3
    third = write_run(tmp_path / "c", run_records(M1, range(4, 6), run_id="20261120T000000-c",
                                                  started=T0 + 2 * DAY) + other, report=False)
    (why,) = differences(collect_runs([second])[0], collect_runs([third])[0])
    assert why.startswith("game options of tictactoe: {obfuscation=")


def test_a_run_held_by_two_folders_counts_once_and_says_so(tmp_path, runs, capsys):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(runs["seed0"], copy)
    found = collect_runs([runs["seed0"], copy])
    assert len(found) == 1 and len(found[0].records) == 24  # not 2 runs, not 48 matches
    out = tmp_path / "site"
    assert main(["leaderboard", str(runs["seed0"]), str(copy), "--out", str(out), "--resamples", "50"]) == 0
    captured = capsys.readouterr()
    assert f"note: {copy / 'results.jsonl'}: the same run as {runs['seed0'] / 'results.jsonl'}; counted once" \
        in captured.err
    assert ": 1 run(s) in 1 pool(s)" in captured.out
    ratings = [build_board(runs_, resamples=50).pooled["pool 1"]["ratings"]
               for runs_ in (found, collect_runs([runs["seed0"]]))]
    assert ratings[0] == ratings[1]  # the rating of one copy, not of the run counted twice


def test_earlier_runs_set_aside_in_a_folder_are_runs_too(tmp_path):
    folder = tmp_path / "play"
    first = run_records(M1, range(0, 2), run_id="20261118T000000-a", started=T0)
    second = run_records(M1, range(2, 4), run_id="20261119T000000-b", started=T0 + DAY)
    write_run(folder, first, report=False)
    (folder / "results.jsonl").rename(folder / "results.20261118T000000-a.jsonl")  # as a later run moves it aside
    write_run(folder, second, report=False)
    found = collect_runs([tmp_path])
    assert [run.label for run in found] == ["20261118T000000-a", "20261119T000000-b"]
    # a --resume carried the first run's records into the second's file: each match still counts once
    carried = [{**r, "run_id": "20261119T000000-b", "played_run_id": "20261118T000000-a"} for r in first]
    write_run(tmp_path / "resumed", carried + second, report=False)
    (tmp_path / "resumed" / "results.20261118T000000-a.jsonl").write_text(
        (folder / "results.20261118T000000-a.jsonl").read_text())
    notes: list[str] = []
    again = collect_runs([tmp_path / "resumed"], notes)
    assert sum(len(run.records) for run in again) == len(first) + len(second)
    assert notes == [f"{tmp_path / 'resumed' / 'results.jsonl'}: {len(first)} match(es) already in "
                     f"{tmp_path / 'resumed' / 'results.20261118T000000-a.jsonl'}; counted once"]


@pytest.mark.parametrize(("change", "message"), [
    ({"manifest": [1]}, "'manifest' is not an object"),
    ({"manifest": {"run_ids": 5}}, "'manifest.run_ids' is not a list of run ids"),
    ({"manifest": {"packages": "x"}}, "'manifest.packages' is not an object"),
])
def test_a_results_json_with_a_broken_manifest_is_one_line(tmp_path, runs, capsys, change, message):
    data = {**json.loads((runs["paper"] / "results.json").read_text()), **change}
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps(data))
    assert _refused(["leaderboard", str(bad), "--out", str(tmp_path / "site")], capsys) == \
        f"stratbench leaderboard: {bad}: {message}"


def test_a_start_time_no_clock_gives_falls_back_to_the_run_id(tmp_path):
    records = [{**r, "started_at": 1e20} for r in run_records(M1, range(0, 2), run_id="20261118T000000-a",
                                                              started=T0)]
    write_run(tmp_path / "r", records, report=False)
    (run,) = collect_runs([tmp_path / "r"])
    assert run.date == "2026-11-18 00:00"
