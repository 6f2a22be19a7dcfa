"""Reports that stay small as runs grow: long matches, large transcripts, many matches, old runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from base64 import b64decode, b64encode
from hashlib import sha256
from pathlib import Path

import pytest
from page_data import inflated, packed_replay, replay_data
from report_records import EVIL_SCRIPT, record
from stratbench.cli import main
from stratbench.report.analysis import analyse
from stratbench.report.embed import unembed
from stratbench.report.render import (
    MATCH_ROWS_OPEN,
    render_html,
    render_transcript,
    write_reports,
)
from stratbench.report.replay import pack_replay, replay_steps, unpack_replay
from stratbench.run.results import (
    COMPRESS_TRANSCRIPTS_OVER,
    ResultStore,
    read_transcript,
)

MAP = "".join(f'<path class="province" d="M{k} {k} L{k + 40} {k} L{k} {k + 40} Z" fill="#d8c9a8"/>\n'
              for k in range(1200))  # a ~70 kB map drawn under every position


def map_board(snapshot):
    """A large board: the same map every step, one piece that moves."""
    x, y = snapshot["at"]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1300 1300">\n{MAP}'
            f'<circle cx="{x}" cy="{y}" r="9" fill="#e76f51"/>\n<text x="5" y="20">label {snapshot["label"]}</text>\n'
            "</svg>")


def snapshot(k: int) -> dict:
    """The position after decision ``k``."""
    return {"at": [((k + 1) % 20) * 60, 30], "label": (k + 1) % 7}


def long_match(steps: int = 2000) -> list[dict]:
    """A match of ``steps`` decisions whose piece walks a 20-cell loop under a label cycling through 7: the
    positions repeat every 140 steps."""
    events = [{"kind": "board", "t": 0, "board": {"at": [0, 0], "label": 0}}]
    for k in range(steps):
        events += [
            {"kind": "observation", "t": k, "turn": k, "player": k % 2,
             "text": f"Turn {k}. The piece is at cell {k % 20}.", "legal": [str(c) for c in range(20)]},
            {"kind": "llm_call", "t": k, "player": k % 2, "model": "openai/m",
             "messages": [{"role": "user", "content": f"Turn {k}: move the piece."}],
             "response": f"Action: {(k + 1) % 20}", "prompt_tokens": 30, "completion_tokens": 4, "duration_s": 0.1},
            {"kind": "action", "t": k, "turn": k, "player": k % 2, "action": str((k + 1) % 20)},
            {"kind": "board", "t": k, "board": snapshot(k)},
        ]
    return events + [{"kind": "end", "t": steps, "scores": [1, 0], "terminal": "done"}]


ROW = {"test_id": "walk", "game": "walk", "agents": ["openai/m", "openai/m"], "scores": [1, 0], "seed": 0,
       "subject": 0, "result": "won"}


def test_a_2000_step_match_with_a_large_board_makes_a_page_under_1_mb():
    events = long_match(2000)
    page = render_transcript(ROW, events, renderers={"walk": map_board})
    assert len(page.encode("utf-8")) < 1_000_000
    assert len(packed_replay(page)["boards"]) == 141  # of 2001 snapshots
    shown = replay_data(page)
    assert len(shown["steps"]) == 2002  # start, 2000 decisions, end
    decisions = shown["steps"][1:-1]
    assert [s["title"] for s in decisions[:2]] == ["turn 0 · player 0", "turn 1 · player 1"]
    for k in (0, 1, 999, 1999):  # each step still shows the board after its move, whole
        assert shown["boards"][decisions[k]["board"]]["svg"] == map_board(snapshot(k))
    assert decisions[1999]["items"][2] == {"label": "prompt", "text": "[user]\nTurn 1999: move the piece."}
    listed = inflated(page)
    assert listed.count('<div class="ev llm_call">') == 2000


def test_each_distinct_board_is_stored_once_and_the_map_around_it_once():
    snapshots = [e["board"] for e in long_match(400) if e["kind"] == "board"]
    distinct = {map_board(s) for s in snapshots}
    assert len(snapshots) == 401 and len(distinct) == 141  # the start, then 20 cells x 7 labels
    replay = replay_steps(long_match(400), map_board)
    assert len(replay["boards"]) == 141
    assert {b["svg"] for b in replay["boards"]} == distinct
    packed = pack_replay(replay)
    assert packed["pieces"].count(MAP.splitlines(keepends=True)[0]) == 1
    # the <svg>, the map's 1200 paths, 21 circles (the start and 20 cells), <text>, 7 labels, </text>, </svg>
    assert len(packed["pieces"]) == 1 + 1200 + 21 + 1 + 7 + 1 + 1
    assert unpack_replay(packed) == replay


def test_a_repeated_position_is_drawn_once():
    drawn = []

    def counting(snapshot):
        drawn.append(snapshot)
        return map_board(snapshot)

    replay = replay_steps(long_match(300), counting)
    assert len(drawn) == len({json.dumps(s, sort_keys=True) for s in drawn}) == 141  # of 301 snapshots
    assert replay["steps"][-2]["board"] == replay["steps"][-142]["board"]  # 140 steps apart: the same board


def test_a_large_transcript_is_written_gzipped_and_a_small_one_plain(tmp_path):
    store = ResultStore(tmp_path, "run-1")
    big = store.append(record("t[big]"), long_match(200))
    small = store.append(record("t[small]"), long_match(1))
    assert big["transcript"].endswith(".json.gz") and small["transcript"].endswith(".json")
    raw = (tmp_path / big["transcript"]).read_bytes()
    assert raw[:2] == b"\x1f\x8b" and len(json.dumps(long_match(200))) > COMPRESS_TRANSCRIPTS_OVER > len(raw)
    assert read_transcript(tmp_path / big["transcript"]) == {"match_id": "t[big]", "events": long_match(200)}
    assert json.loads((tmp_path / small["transcript"]).read_text())["events"] == long_match(1)
    records = [json.loads(line) for line in store.path.read_text().splitlines()]
    data = analyse(records, resamples=20)
    write_reports(data, tmp_path)
    pages = {m["match_id"]: replay_data((tmp_path / m["page"]).read_text()) for m in data["matches"]}
    assert len(pages["t[big]"]["steps"]) == 202 and len(pages["t[small]"]["steps"]) == 3


def test_a_run_written_before_compression_still_rebuilds(tmp_path, capsys):
    """An old run: plain .json transcripts, whatever their size; ``stratbench report DIR`` rebuilds its pages."""
    events = long_match(300)
    (tmp_path / "transcripts" / "old-run").mkdir(parents=True)
    (tmp_path / "transcripts" / "old-run" / "m1.json").write_text(json.dumps({"match_id": "m1", "events": events}))
    (tmp_path / "results.jsonl").write_text(
        json.dumps(record("suites/test_ttt.py::test_tictactoe[a-vs-b-s0]", transcript="transcripts/old-run/m1.json"))
        + "\n")
    assert main(["report", str(tmp_path), "--resamples", "20"]) == 0
    (page,) = (tmp_path / "transcripts").glob("*.html")
    shown = replay_data(page.read_text())
    assert len(shown["steps"]) == 302 and shown["steps"][300]["items"][0]["text"] == "Turn 299. The piece is at cell 19."


def test_a_large_run_carries_its_matches_table_compressed(tmp_path):
    agent = "openai/m" + EVIL_SCRIPT
    records = [record(f"suites/test_ttt.py::test_tictactoe[{agent}-vs-b-s{k}]", (agent, "b"), seed=k,
                      transcript=f"transcripts/r/{k}.json", game=("tictactoe", "connect4")[k % 2])
               for k in range(MATCH_ROWS_OPEN + 100)]
    data = analyse(records, resamples=20)
    html = render_html(data)
    assert len(html.encode("utf-8")) < 300_000
    folds = re.findall(r'<details class="matches" data-group="(\d+)"><summary>(.*?)</summary>', html)
    assert folds == [("0", "tictactoe: 300 matches"), ("1", "connect4: 300 matches")]
    section = html[html.index('<h2 id="matches">'):html.index('id="match-rows"')]
    assert section.count("<tr>") == 2  # the two folds' header rows: no match row is markup
    rows = json.loads(unembed(re.search(r'id="match-rows" data-encoding="gzip\+base64">([A-Za-z0-9+/=]+)</script>',
                                        html).group(1)))
    assert [len(group) for group in rows] == [300, 300]
    pages = {m["match_id"]: m["page"] for m in data["matches"]}
    first = rows[0][0]
    assert first == [pages[records[0]["match_id"]], records[0]["test_id"], f"{agent} vs b", "1.00 / 0.00",
                     f"{agent} won (done)", "5", "0/0", "0", "0.00"]
    script = re.search(r"<script>(.*?)</script>", html, re.DOTALL).group(1)
    assert f"script-src 'sha256-{b64encode(sha256(script.encode()).digest()).decode()}'" in html
    assert EVIL_SCRIPT not in html


def test_a_small_run_keeps_its_matches_table_as_plain_rows_and_no_script(tmp_path):
    records = [record(f"m{k}", seed=k) for k in range(10)]
    html = render_html(analyse(records, resamples=20))
    assert "<script" not in html and "script-src" not in html
    assert re.findall(r'<details class="matches" open><summary>(.*?)</summary>', html) == ["tictactoe: 10 matches"]
    assert html.count('<td class="l">m') == 10


def test_a_page_is_the_same_bytes_on_every_build():
    """No time stamp in the gzip headers: rebuilding a report changes no page that did not change."""
    events = long_match(30)
    first = render_transcript(ROW, events, renderers={"walk": map_board})
    assert first == render_transcript(ROW, events, renderers={"walk": map_board})
    data = re.search(r'id="replay-data" data-encoding="gzip\+base64">(.*?)</script>', first).group(1)
    assert b64decode(data)[4:8] == b"\0\0\0\0"  # gzip's MTIME field


WRITE_PAGES = """
import json, sys
from pathlib import Path

import stratbench.report.render as render
from stratbench.report.analysis import analyse
from test_report_scale import map_board

run, out, workers_from = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
render.PARALLEL_PAGES_FROM = workers_from
records = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
print(render._page_workers(len(records)))
render.write_reports(analyse(records, resamples=20), out, transcripts_from=[run], renderers={"tictactoe": map_board})
"""


@pytest.mark.slow
def test_pages_written_by_forked_workers_are_the_pages_one_process_writes(tmp_path):
    """In a process of its own, as ``stratbench report`` runs (no other thread: here, an xdist worker's threads
    would keep it serial, and a fork beside them is what the guard prevents)."""
    store = ResultStore(tmp_path / "run", "run-1")
    for k in range(6):
        store.append(record(f"t[m{k}]", seed=k), long_match(k + 1))
    pages = {}
    for name, workers_from in (("serial", 10_000), ("forked", 2)):
        done = subprocess.run([sys.executable, "-c", WRITE_PAGES, str(tmp_path / "run"), str(tmp_path / name),
                               str(workers_from)], cwd=Path(__file__).parent, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        workers = int(done.stdout.split()[0])
        assert workers == (1 if name == "serial" else min(4, len(os.sched_getaffinity(0))))
        pages[name] = {p.name: p.read_bytes() for p in (tmp_path / name / "transcripts").glob("*.html")}
    assert len(pages["forked"]) == 6 and pages["forked"] == pages["serial"]
    assert replay_data(pages["forked"][next(iter(pages["forked"]))].decode())["boards"]


def test_no_page_writer_is_forked_while_another_thread_runs(monkeypatch):
    import threading

    import stratbench.report.render as render

    monkeypatch.setattr(render, "PARALLEL_PAGES_FROM", 2)
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert render._page_workers(6) == 1  # a fork would copy locks that thread may hold
    finally:
        stop.set()
        worker.join()


def conversation(calls: int) -> list[dict]:
    """One player's model calls, each re-sending the whole conversation so far (about 600 characters a turn)."""
    events, messages = [], [{"role": "system", "content": "You play a long game. " * 20}]
    for k in range(calls):
        messages = [*messages, {"role": "user", "content": f"Turn {k}: the position is " + "ab" * 150}]
        events += [{"kind": "observation", "t": k, "turn": k, "player": 0, "text": f"turn {k}", "legal": ["0"]},
                   {"kind": "llm_call", "t": k, "player": 0, "model": "openai/m", "messages": messages,
                    "response": f"Action: 0 (turn {k})", "prompt_tokens": 10 + k, "completion_tokens": 3,
                    "duration_s": 0.1},
                   {"kind": "action", "t": k, "turn": k, "player": 0, "action": "0"}]
        messages = [*messages, {"role": "assistant", "content": f"Action: 0 (turn {k})"}]
    return events


def test_a_long_conversation_lists_each_message_once():
    events = conversation(600)  # the last call re-sends 1,200 messages: 110 MB of markup listed whole
    page = render_transcript(ROW, events)
    assert len(page.encode("utf-8")) < 1_000_000
    listed = inflated(page)
    assert listed.count("Turn 599: the position is") == 1 and listed.count("Turn 0: the position is") == 1
    assert listed.count("You play a long game.") == 20  # the system prompt, once: 20 repeats of its sentence
    notes = re.findall(r"<div class=\"muted\">… the first (\d+) messages?, as in this player's previous call</div>",
                       listed)
    assert [int(n) for n in notes] == [2 * k for k in range(1, 600)]  # system + each earlier turn and reply
    steps = replay_data(page)["steps"]
    assert steps[599]["items"][2] == {"label": "prompt", "text": "[user]\nTurn 599: the position is " + "ab" * 150}


def test_a_damaged_gzipped_transcript_is_shown_as_an_error(tmp_path):
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "m1.json.gz").write_bytes(b"\x1f\x8b\x08\x00not gzip")
    data = analyse([record("m1", transcript="transcripts/m1.json.gz")], resamples=20)
    write_reports(data, tmp_path)
    (page,) = [m["page"] for m in data["matches"]]
    steps = replay_data((tmp_path / page).read_text())["steps"]
    assert steps[0]["items"] == [{"label": "error", "text": '{\n "text": "unreadable transcript '
                                  + str(tmp_path / "transcripts" / "m1.json.gz") + '"\n}'}]
