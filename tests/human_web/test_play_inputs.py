"""Bad inputs around the human seat: ``stratbench play`` arguments refused before a page starts, the page's
pytest options without a human seat, moves files of the wrong shape or from an unfinished game, and a play
stopped by SIGTERM."""

from __future__ import annotations

import asyncio
import io
import json
import random
import signal
import webbrowser
from pathlib import Path

import pytest
from helpers import PlayProcess, play_command

from stratbench.agents.human import HumanAgent
from stratbench.cli import main
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.human_web import run as web_run
from stratbench.human_web.moves import HumanMoves, moves_path
from stratbench.human_web.run import human_option_problem
from stratbench.llm.cassettes import cassette_path
from stratbench.match.play import play_and_close

NAME_RULE = "expected 1 to 40 letters, digits, '.', '_' or '-'"


@pytest.fixture
def no_page(monkeypatch, tmp_path):
    """Fails the test if a page would start or a browser open; runs in ``tmp_path``."""
    def refuse(*args, **kwargs):
        raise AssertionError("a page started (or a browser opened) for a refused command")

    monkeypatch.setattr(web_run.HumanWebRun, "start", refuse)
    monkeypatch.setattr(webbrowser, "open", refuse)
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(("args", "message"), [
    (["--human-timeout", "inf"], "--human-timeout: expected a number of seconds greater than 0, got 'inf'"),
    (["--human-timeout", "nan"], "--human-timeout: expected a number of seconds greater than 0, got 'nan'"),
    (["--model", "openai/"], "--model: expected a model string such as openai/gpt-4o, with a name after each '/', "
                             "got 'openai/'"),
    (["--opponent", "random", "--api-base", "ftp://x"], "--api-base: expected an http:// or https:// URL, got "
                                                        "'ftp://x'"),
    (["--report-dir", "FILE"], "--report-dir FILE: is a file, not a directory"),
    (["--report-dir", "FILE/sub"], "--report-dir FILE/sub: lies under FILE, which is a file, not a directory"),
    (["--cassette-dir", "FILE"], "--cassette-dir FILE: is a file, not a directory"),
    (["--name", ""], f"--name '': {NAME_RULE}"),
    (["--name", "  "], f"--name '  ': {NAME_RULE}"),
])
def test_play_refuses_what_pytest_would_refuse_before_any_page_starts(no_page, tmp_path, capsys, args, message):
    (tmp_path / "FILE").write_text("not a folder")
    given = {"--report-dir": "reports", "--cassette-dir": "cassettes"}
    given.update(dict(zip(args[::2], args[1::2])))
    status = main(["play", "tictactoe", "--no-browser", *(part for pair in given.items() for part in pair)])
    captured = capsys.readouterr()
    assert (status, captured.err) == (2, f"stratbench play: {message}\n")
    assert captured.out == ""


@pytest.mark.parametrize(("content", "problem"), [
    ('{"a": 1}', 'expected a list of recorded human moves ({"turn": N, "action": "..."}), got an object'),
    ("[1, 2, 3]", 'move 1 of 3: expected an object with "turn" and "action", got a number (1)'),
    ('[{"turn": 0}]', 'move 1 of 1: no "action"'),
    ('[{"turn": 0, "action": "4"}, {"turn": true, "action": "5"}]', 'move 2 of 2: "turn" must be a whole number, '
                                                                    "got true"),
    ('{"unfinished": true, "moves": [{"turn": 0, "action": "4"}]}',
     "recorded in an unfinished game (stopped after 1 move(s) of the person's, before the match's end): it cannot "
     "be replayed; play the match again"),
    ("[" * 30000 + "]" * 30000, "not a readable JSON file of recorded human moves (maximum recursion depth "
                                "exceeded"),
])
def test_a_moves_file_that_cannot_be_replayed_is_refused_naming_it(tmp_path, content, problem):
    path = tmp_path / "match.yaml.human-p0.json"
    path.write_text(content)
    with pytest.raises(HarnessError) as refused:
        HumanMoves(path, replaying=True)
    assert str(refused.value).startswith(f"{path}: {problem}")
    assert "\n" not in str(refused.value)


def _tictactoe_match(tmp_path: Path, typed: dict[int, str]) -> tuple[list[Path], BaseException | None]:
    """Plays Tic-Tac-Toe between two human agents reading ``typed[player]`` (recorded as a match of this run);
    returns their moves files and what stopped the match early (None: it reached its end)."""
    game, transcript = TicTacToe(), Transcript()
    options = {"cassette_dir": str(tmp_path), "match_id": "suite.py::test[human-vs-human-s0]", "record_mode": "all"}
    agents = {player: HumanAgent(AgentContext(AgentSpec(kind=f"human:p{player}"), game, player, player,
                                              random.Random(player), transcript,
                                              options={**options, "human_input": io.StringIO(text),
                                                       "human_output": io.StringIO()}))
              for player, text in typed.items()}
    stopped = None
    try:
        asyncio.run(play_and_close(agents, run_match(game, game.new_initial_state(0), agents,
                                                     rng=random.Random(0), transcript=transcript)))
    except HarnessError as error:
        stopped = error
    cassette = cassette_path(tmp_path, options["match_id"])
    return [moves_path(cassette, player) for player in typed], stopped


def test_the_moves_file_of_a_game_played_to_its_end_replays_and_a_stopped_ones_says_unfinished(tmp_path):
    files, stopped = _tictactoe_match(tmp_path / "ended", {0: "0\n1\n2\n", 1: "3\n4\n"})
    assert stopped is None
    assert [json.loads(path.read_text()) for path in files] == [
        [{"turn": 0, "action": "0"}, {"turn": 2, "action": "1"}, {"turn": 4, "action": "2"}],
        [{"turn": 1, "action": "3"}, {"turn": 3, "action": "4"}]]
    assert [m["action"] for m in HumanMoves(files[0], replaying=True).moves] == ["0", "1", "2"]

    files, stopped = _tictactoe_match(tmp_path / "stopped", {0: "0\n1\n", 1: "3\n"})  # player 1's input ends
    assert str(stopped) == "the human agent's input was closed (run pytest with -s to play)"
    assert json.loads(files[0].read_text()) == {"unfinished": True, "moves": [{"turn": 0, "action": "0"},
                                                                             {"turn": 2, "action": "1"}]}
    with pytest.raises(HarnessError, match=r"recorded in an unfinished game \(stopped after 2 move\(s\)"):
        HumanMoves(files[0], replaying=True)


def test_play_replay_refuses_a_moves_file_of_the_wrong_shape_with_one_line(tmp_path):
    moves = (tmp_path / "cassettes" / "test_play_tictactoe" / "test_play"
             / "random-vs-human_alice-s1.yaml.human-p0.json").resolve()
    moves.parent.mkdir(parents=True)
    moves.write_text('[{"turn": 0}]')
    result = play_command(tmp_path, "tictactoe", "--opponent", "random", "--name", "alice", "--replay")
    assert (result.returncode, result.stderr) == (2, f'stratbench play: {moves}: move 1 of 1: no "action"\n')
    assert not (tmp_path / "reports" / "results.jsonl").exists()  # no match played, none recorded


@pytest.mark.parametrize(("agents", "web", "port", "problem"), [
    ([], True, 0, "--human-web: the page is for a human seat, and no --stratbench-agent is human; add "
                  "--stratbench-agent human (or human:NAME)"),
    (["random"], True, 8123, "--human-web --human-port 8123: the page is for a human seat, and no "
                             "--stratbench-agent is human; add --stratbench-agent human (or human:NAME)"),
    ([], False, 8123, "--human-port 8123: the page is for a human seat, and no --stratbench-agent is human; add "
                      "--stratbench-agent human (or human:NAME)"),
    (["human"], False, 8123, "--human-port 8123: the port of the page; add --human-web"),
    (["human:alice"], True, 8123, None),
    ([], False, 0, None),
])
def test_the_page_options_need_a_human_seat(agents, web, port, problem):
    assert human_option_problem(agents, web, port) == problem


SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""


def test_pytest_refuses_human_web_without_a_human_seat(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--human-web", "--human-no-browser",
                                           "--stratbench-agent", "random")
    assert result.ret == 4
    assert result.stderr.lines[0] == ("ERROR: stratbench: --human-web: the page is for a human seat, and no "
                                      "--stratbench-agent is human; add --stratbench-agent human (or human:NAME)")
    assert not any("play at" in line for line in result.outlines)


@pytest.mark.slow
def test_sigterm_stops_the_play_cleans_its_folders_and_the_replay_says_the_game_was_unfinished(tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    play = PlayProcess(tmp_path, "tictactoe", "--opponent", "random", "--name", "alice",
                       browser="true", env={"TMPDIR": str(temporary)})  # `true FILE` stands in for the browser
    try:
        decision = play.wait_for_decision()
        assert play.request("/move", body={"decision": decision["decision"], "move": "4"})[0] == 200
        play.wait_for_decision(after=decision["decision"])  # the move is recorded before the next is asked
        assert sorted(path.name.split("-")[1] for path in temporary.iterdir()) == ["page", "play"]
        play.process.send_signal(signal.SIGTERM)
        code, out, err = play.finish()
    finally:
        play.kill()
    assert code == 128 + signal.SIGTERM, out + err
    assert list(temporary.iterdir()) == []  # the suite's folder and the browser's hand-off file are gone
    moves = (tmp_path / "cassettes" / "test_play_tictactoe" / "test_play"
             / "random-vs-human_alice-s1.yaml.human-p0.json").resolve()
    assert json.loads(moves.read_text())["unfinished"] is True
    replay = play_command(tmp_path, "tictactoe", "--opponent", "random", "--name", "alice", "--replay")
    assert (replay.returncode, replay.stderr) == (
        2, f"stratbench play: {moves}: recorded in an unfinished game (stopped after 1 move(s) of the person's, "
           "before the match's end): it cannot be replayed; play the match again\n")
