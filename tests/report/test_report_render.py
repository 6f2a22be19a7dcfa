"""Rendering: a self-contained report.html, report.md, results.json and transcript pages, all escaped."""

from __future__ import annotations

import json
import re

import pytest
from page_data import inflated, replay_data
from report_records import EVIL, EVIL_IMG, EVIL_SCRIPT, record
from stratbench.report.analysis import analyse, manifest_for
from stratbench.families import standalone_registry
from stratbench.report.render import render_markdown, write_reports
from stratbench.games.spin.report import solver_games
from stratbench.run.results import ResultStore

MODEL = "openai/" + EVIL
"""A model string a hostile provider could make us print."""
ESCAPED_SCRIPT = "&lt;script&gt;alert(1)&lt;/script&gt;"


def _events(evil: str) -> list[dict]:
    return [
        {"kind": "observation", "t": 0.0, "turn": 0, "player": 0, "text": "board " + evil, "legal": ["0", evil]},
        {"kind": "llm_call", "t": 0.1, "player": 0, "model": MODEL,
         "messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "Legal actions: " + evil},
                      {"role": "user", "content": [{"type": "text", "text": evil}]}],
         "response": "Action: " + evil, "prompt_tokens": 3, "completion_tokens": 4, "duration_s": 0.2},
        {"kind": "rejected", "t": 0.2, "turn": 0, "player": 0, "attempt": 1, "error": "not legal: " + evil},
        {"kind": "message", "t": 0.3, "sender": 0, "recipients": [1], "text": "let us ally " + evil},
        {"kind": "message_rejected", "t": 0.4, "sender": 1, "recipients": [0], "text": evil, "error": "too long"},
        {"kind": "action", "t": 0.5, "turn": 0, "player": 0, "attempt": 2, "action": "0"},
        {"kind": "custom", "t": 0.6, "detail": evil},
    ]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    directory = tmp_path_factory.mktemp("report")
    store = ResultStore(directory, "run-1")
    agents = [MODEL, "minimax", "random"]
    k = 0
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            for seed in range(4):
                score = float((seed + i) % 3 != 0)
                match_id = f"suites/test_ttt.py::test_tictactoe[{a}-vs-{b}-s{seed}]"
                models = (MODEL if a == MODEL else None, None)
                store.append(record(match_id, (a, b), (score, 1.0 - score), seed=seed, models=models,
                                    scaffolds=("direct" if a == MODEL else None, None)), _events(EVIL))
                k += 1
    records = [json.loads(line) for line in store.path.read_text().splitlines()]
    manifest = manifest_for(records, command=["pytest", "--model", MODEL])
    data = analyse(records, resamples=200, manifest=manifest, sections={"solver_games": solver_games})
    data["notes"].append("note about " + EVIL)
    files = write_reports(data, directory, renderers=standalone_registry(("reporters",)).board_renderers)
    return directory, files, data, k


def test_writes_the_three_files_and_one_transcript_page_per_match(written):
    directory, files, data, n = written
    assert sorted(files) == ["report.html", "report.md", "results.json"]
    assert all(path.is_file() and path.parent == directory for path in files.values())
    assert len(list((directory / "transcripts").glob("*.html"))) == n == data["n_matches"]
    saved = json.loads(files["results.json"].read_text())
    assert saved["ratings"]["agents"] == data["ratings"]["agents"]
    assert saved["manifest"]["command_line"] == ["pytest", "--model", MODEL]
    assert saved["matches"][0]["match_id"].startswith("suites/test_ttt.py::test_tictactoe[")


def test_html_is_self_contained_with_table_plot_heatmap_and_linked_transcripts(written):
    directory, files, data, _ = written
    html = files["report.html"].read_text()
    assert '<table id="ratings-table">' in html
    assert '<svg class="rating-plot"' in html and '<svg class="heatmap"' in html
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "http://" not in html and "https://" not in html  # no CDN, no fonts, no URL at all
    assert not re.search(r"""(src|href)\s*=\s*["']?//""", html)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    links = re.findall(r'<a href="(transcripts/[^"]+\.html)">', html)
    assert len(links) == data["n_matches"]
    for link in links:
        page = (directory / link).read_text()
        assert '<a href="../report.html">' in page
    for row in data["ratings"]["agents"]:
        assert f"<td class=\"l\">{row.replace('<', '&lt;').replace('>', '&gt;')}</td>" in html


def test_rating_table_is_ordered_best_first(written):
    _, files, data, _ = written
    html = files["report.html"].read_text()
    table = html[html.index('<table id="ratings-table">'):]
    table = table[:table.index("</table>")]
    ratings = data["ratings"]
    best_first = [a for _, a in sorted(zip(ratings["mean"], ratings["agents"]), key=lambda p: -p[0])]
    positions = [table.index(f">{a.replace('<', '&lt;').replace('>', '&gt;')}</td>") for a in best_first]
    assert positions == sorted(positions)


def _assert_escaped(text: str) -> None:
    assert EVIL_SCRIPT not in text and EVIL_IMG not in text
    assert "<script" not in text.lower()
    assert not re.search(r"<[^>]*\bonerror\s*=", text, re.IGNORECASE)


def _without_replay_scripts(page: str) -> str:
    """The page without the replay's two script elements, which must be exactly the report's own."""
    from stratbench.report.render import _replay_script

    script, script_hash = _replay_script()
    assert f"script-src '{script_hash}'" in page
    found = re.findall(r'<script type="application/octet-stream" id="(?:replay|events)-data" '
                       r'data-encoding="gzip\+base64">[A-Za-z0-9+/=]*</script>', page)
    assert len(found) == 2  # base64 only: model text cannot close the element or open markup
    replay_data(page)
    page = inflated(page)
    for data in found:
        page = page.replace(data, "")
    assert f"<script>{script}</script>" in page
    return page.replace(f"<script>{script}</script>", "")


def test_every_model_string_is_escaped_in_html_markdown_and_transcripts(written):
    directory, files, _, _ = written
    html = files["report.html"].read_text()
    _assert_escaped(html)
    assert ESCAPED_SCRIPT in html and "&lt;img src=x onerror=alert(2)&gt;" in html
    markdown = files["report.md"].read_text()
    _assert_escaped(markdown)
    assert "<img" not in markdown and "openai/&lt;script&gt;" in markdown
    for page in (directory / "transcripts").glob("*.html"):
        text = page.read_text()
        _assert_escaped(_without_replay_scripts(text))
        assert text.lower().count("<script") == 3  # the replay's data, the list of events, the viewer
    page = inflated(next((directory / "transcripts").glob("*openai*.html")).read_text())
    for shown in ("Action: " + ESCAPED_SCRIPT, "let us ally " + ESCAPED_SCRIPT, "not legal: " + ESCAPED_SCRIPT):
        assert shown in page
    assert "&#34;detail&#34;: &#34;" + ESCAPED_SCRIPT in page  # an event without its own layout is shown as JSON text


def test_markdown_tables_survive_pipes_and_newlines():
    data = analyse([record("m1", ("a|b\nc", "d")), record("m2", ("d", "a|b\nc"))], resamples=20)
    markdown = render_markdown(data)
    lines = markdown.splitlines()
    tables = [(lines[k - 2], line) for k, line in enumerate(lines) if line.startswith("| a\\|b c |")]
    assert len(tables) == 2  # the ratings and the average scores
    for header, row in tables:
        assert len(re.findall(r"(?<!\\)\|", row)) == len(re.findall(r"(?<!\\)\|", header))


def test_markdown_has_the_ratings_and_scores_tables(written):
    _, files, data, _ = written
    markdown = files["report.md"].read_text()
    assert "### Ratings (90% intervals, B=200)" in markdown
    assert "| agent | rating | interval | matches |" in markdown  # Elo is per game, in its own table
    assert "### Average scores" in markdown and "### Against solvers (SPIN-Bench)" in markdown
    assert f"{data['n_matches']} matches · 1 games · 3 agents" in markdown


def test_chess_transcripts_show_the_final_board_drawn_by_the_games_board_renderer(tmp_path):
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    store = ResultStore(tmp_path, "run-1")
    store.append(record("t[a-vs-b-s0]", game="chess", metrics={"0": {"final_fen": fen}, "1": {"final_fen": fen}}),
                 [{"kind": "board", "t": 0.5, "board": {"fen": fen, "lastmove": "e2e4"}}, {"kind": "end", "t": 1.0}])
    records = [json.loads(line) for line in store.path.read_text().splitlines()]
    write_reports(analyse(records, resamples=20), tmp_path,
                  renderers=standalone_registry(("reporters",)).board_renderers)
    page = next((tmp_path / "transcripts").glob("*.html")).read_text()
    assert '<div class="board"><svg' in page


def test_an_unreadable_transcript_is_shown_as_an_error_and_said_on_stderr(tmp_path, capsys):
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "m1.json").write_text("{not json")
    (tmp_path / "transcripts" / "m2.json.gz").write_bytes(b"\x1f\x8b\x08not gzip at all")
    data = analyse([record("m1", transcript="transcripts/m1.json"), record("m2", transcript="transcripts/m2.json.gz")],
                   resamples=20)
    write_reports(data, tmp_path)
    pages = [m["page"] for m in data["matches"]]
    assert all("unreadable transcript" in inflated((tmp_path / page).read_text()) for page in pages)
    err = capsys.readouterr().err
    for name, match in (("m1.json", "m1"), ("m2.json.gz", "m2")):
        assert f"warning: unreadable transcript {tmp_path / 'transcripts' / name} (" in err
        assert f"the page of {match} shows no moves" in err


def test_long_match_ids_get_distinct_transcript_pages(tmp_path):
    long_model = "openrouter/" + "x" * 200
    records = [record(f"suites/test_ttt.py::test_tictactoe[{long_model}-vs-minimax-s{k}]", (long_model, "minimax"),
                      seed=k, transcript=f"transcripts/t{k}.json") for k in range(3)]
    data = analyse(records, resamples=20)
    write_reports(data, tmp_path)
    pages = {m["page"] for m in data["matches"]}
    assert len(pages) == 3
    html = (tmp_path / "report.html").read_text()
    assert all(f'href="{page}"' in html and (tmp_path / page).is_file() for page in pages)
