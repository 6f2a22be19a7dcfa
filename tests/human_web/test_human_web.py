"""The human seat's page without a browser: the token, server-side move checks, forfeits, refused arguments,
records and the offline replay, through ``stratbench play`` and pytest as a user runs them."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from helpers import PlayProcess, play_command, records, transcript

from stratbench.agents.human import human_name
from stratbench.core.types import Action, AgentForfeit, HarnessError, IllegalActionError
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.families import standalone_registry
from stratbench.human_web.agent import check_move
from stratbench.human_web.server import HumanWebServer
from stratbench.human_web.table import HumanTable
from stratbench.report.analysis import elo_by_game
from stratbench.run.config import default_concurrency
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder


def _tictactoe_observation(moves: str = "") -> object:
    game = TicTacToe()
    state = game.new_initial_state(0)
    for cell in moves:
        state.apply({state.current_players()[0]: Action(cell)})
    return game.observe(state, state.current_players()[0])


def _play_page(tmp_path, *args):
    """Starts ``stratbench play tictactoe`` against random, seat 0, and waits for its first decision."""
    play = PlayProcess(tmp_path, "tictactoe", "--opponent", "random", "--name", "alice", *args)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, state = play.request("/state")
        if status == 200 and state["decision"]:
            return play, state["decision"]
        time.sleep(0.1)
    play.kill()
    raise AssertionError("no decision shown")


@pytest.mark.slow
def test_requests_without_the_token_or_with_a_wrong_one_are_refused(tmp_path):
    play, decision = _play_page(tmp_path)
    try:
        for token in ("", "wrong", play.token[:-1], play.token + "x"):
            assert play.request("/", token=token)[0] == 403
            assert play.request("/state", token=token)[0] == 403
            status, body = play.request("/move", token=token, body={"decision": decision["decision"], "move": "4"})
            assert status == 403
            assert "forbidden" in body
        status, page = play.request("/")
        assert status == 200
        assert "<script>" in page and "Content-Security-Policy" in page
        assert "http" not in page.split("<script>")[1].split("</script>")[0]  # the script loads nothing
        # nothing was played by the refused requests: the same decision still waits
        assert play.request("/state")[1]["decision"]["decision"] == decision["decision"]
    finally:
        play.kill()


def test_an_illegal_or_unreadable_move_is_refused_with_the_reason_and_the_person_tries_again(tmp_path):
    play, decision = _play_page(tmp_path, "--seat", "0")
    try:
        assert decision["legal"] == [str(cell) for cell in range(9)]
        status, body = play.request("/move", body={"decision": decision["decision"], "move": "9"})
        assert (status, body["ok"]) == (400, False)
        assert body["error"] == "'9' is not a legal action. Legal actions: 0, 1, 2, 3, 4, 5, 6, 7, 8"
        status, body = play.request("/move", body={"decision": decision["decision"], "move": ""})
        assert status == 400 and body["error"].startswith("The reply was empty.")
        status, body = play.request("/move", body={"decision": decision["decision"] + 1, "move": "4"})
        assert status == 400 and body["error"].startswith("no move is awaited for this decision")
        status, body = play.request("/move", body={"decision": "x"})
        assert status == 400 and body["error"].startswith("unreadable move request")
        assert play.request("/move", body={"decision": decision["decision"], "move": "4"}) == (200, {"ok": True,
                                                                                                  "error": ""})
        # the next decision shows the move played and refuses the occupied cell
        deadline = time.monotonic() + 60
        while True:
            state = play.request("/state")[1]
            if state["decision"] and state["decision"]["decision"] != decision["decision"]:
                break
            assert time.monotonic() < deadline
            time.sleep(0.1)
        nxt = state["decision"]
        assert nxt["moves"][0] == {"player": 0, "action": "4", "by": "You (X)"}
        assert nxt["last_other"]["by"] == "random (O)" and nxt["last_other"]["reply"] is None  # no model: no reply
        assert "4" not in nxt["legal"]
        status, body = play.request("/move", body={"decision": nxt["decision"], "move": "4"})
        assert status == 400 and body["error"].startswith("'4' is not a legal action.")
    finally:
        play.kill()


@pytest.mark.parametrize("agents", [["human"], ["human:alice"], ["random", "human:bob"]])
def test_a_human_plays_one_match_at_a_time(agents):
    assert default_concurrency(8, ["openai/m"], agents) == 1


def test_human_name_is_an_agent_of_the_registry():
    registry = standalone_registry(("agents",))
    assert registry.agent_factory("human:alice") is registry.agent_factory("human")
    with pytest.raises(ValueError, match="^unknown agent 'robot:alice'; known: "):
        registry.check_agent("robot:alice")
    assert human_name("human:alice") == "alice"


def test_check_move_reads_with_the_models_parser():
    observation = _tictactoe_observation("4")
    assert check_move("Action: 0", observation) == Action("0")
    assert check_move('{"action": "8"}', observation) == Action("8")
    with pytest.raises(IllegalActionError, match=r"^'4' is not a legal action\. Legal actions: 0, 1, 2, 3, 5, 6"):
        check_move("4", observation)


@pytest.mark.slow
def test_an_idle_person_forfeits_the_match_with_the_reason(tmp_path):
    play = PlayProcess(tmp_path, "tictactoe", "--opponent", "random", "--name", "idle", "--human-timeout", "1")
    code, out, err = play.finish()
    assert code == 0, out + err
    (record,) = records(tmp_path)
    human = next(i for i, side in enumerate(record["sides"]) if side["agent"] == "human:idle")
    assert record["forfeited_by_side"] == human
    assert record["scores"][human] == 0.0 and record["scores"][1 - human] == 1.0
    (forfeit,) = [e for e in transcript(tmp_path, record) if e["kind"] == "fallback"]
    assert forfeit["policy"] == "forfeit"
    assert forfeit["reason"] == "no move within --human-timeout 1 s"
    assert forfeit["fault"] == "human"
    assert record["terminal"] == f"forfeit by player {human}: no move within --human-timeout 1 s"  # why, in the record


def test_a_closed_page_forfeits_the_match_saying_the_person_left():
    table = HumanTable(idle_timeout=60, page_gone_s=0.3)
    table.view()  # the page polled once, then went away
    started = time.monotonic()
    left = r"^the page stopped polling: the person left the game \(no poll for 0\.3 s\)$"
    with pytest.raises(AgentForfeit, match=left):
        table.ask({"legal": []}, Action)
    assert time.monotonic() - started < 30


def test_a_decision_the_match_gave_up_frees_the_page_for_the_next():
    table = HumanTable(idle_timeout=60)
    given_up = threading.Event()
    given_up.set()  # the match ran past --match-timeout while the person thought
    with pytest.raises(HarnessError, match="^the match gave up waiting for the human's move$"):
        table.ask({"legal": ["a"]}, Action, given_up)
    answered = []
    waiting = threading.Thread(target=lambda: answered.append(table.ask({"legal": ["b"]}, Action)))
    waiting.start()
    deadline = time.monotonic() + 10
    while table.view()["decision"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert table.submit(table.view()["decision"]["decision"], "b") == (True, "")
    waiting.join(timeout=10)
    assert answered == [Action("b")]


def test_the_server_stops_with_its_run_and_ends_a_wait():
    table = HumanTable(idle_timeout=60)
    server = HumanWebServer(table).start()
    port = server.port
    errors = []

    def wait() -> None:
        try:
            table.ask({"legal": ["a"]}, Action)
        except Exception as error:  # noqa: BLE001 - kept for the assert
            errors.append(error)

    waiting = threading.Thread(target=wait)
    waiting.start()
    server.stop()
    waiting.join(timeout=10)
    assert not waiting.is_alive()
    assert [str(e) for e in errors] == ["the human's page was shut down while a move was awaited"]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


@pytest.mark.slow
def test_a_model_match_is_recorded_rated_and_replays_offline(tmp_path):
    with FakeLLMServer(responder=first_legal_responder) as llm:
        play = PlayProcess(tmp_path, "connect4", "--model", "openai/m", "--api-base", llm.api_base,
                           "--name", "bob", "--seat", "1")
        played, seen = [], {}
        try:
            while play.process.poll() is None:
                status, state = play.request("/state")
                seen = state if status == 200 else seen
                if status == 200 and state["decision"]:
                    move = state["decision"]["legal"][len(played) % len(state["decision"]["legal"])]
                    if play.request("/move", body={"decision": state["decision"]["decision"], "move": move})[0] == 200:
                        played.append(move)
                time.sleep(0.05)
        except (ConnectionError, OSError):
            pass  # the run ended between two polls
        code, out, err = play.finish()
        calls = len(llm.requests)
    assert code == 0, out + err
    (record,) = records(tmp_path)
    assert [side["agent"] for side in record["sides"]] == ["openai/m+direct", "human:bob"]
    assert record["match_id"] == "test_play_connect4.py::test_play[openai/m+direct-vs-human:bob-s0]"
    assert record["result"] in ("won", "lost", "drew") and sorted(record["scores"]) in ([0.0, 1.0], [0.5, 0.5])
    assert record["decisions"][1] == len(played) and calls == record["decisions"][0]
    human_moves = [e["action"] for e in transcript(tmp_path, record) if e["kind"] == "action" and e["player"] == 1]
    assert human_moves == played
    # the page was served the end before the command ended: the result from bob's side, naming the model
    assert seen["closed"] is True and seen["decision"] is None
    (end,) = seen["finished"]
    outcome = {1.0: "You won against", 0.0: "You lost against", 0.5: "Draw against"}[record["scores"][1]]
    assert end["sentence"].startswith(f"{outcome} openai/m+direct")
    assert end["versus"] == "You (O) against openai/m+direct (X)"
    assert end["last_other"]["by"] == "openai/m+direct (X)" and end["last_other"]["reply"].startswith("Action: ")
    moves_file = (tmp_path / "cassettes" / "test_play_connect4" / "test_play"
                  / "openai_m+direct-vs-human_bob-s0.yaml.human-p1.json")
    assert [m["action"] for m in json.loads(moves_file.read_text())] == played
    assert "human:bob" in (tmp_path / "reports" / "report.md").read_text()
    assert set(elo_by_game([record])["ratings"]["connect4"]) == {"human:bob", "openai/m+direct"}  # SPIN-Bench's Elo

    replay = play_command(tmp_path, "connect4", "--model", "openai/m", "--name", "bob", "--seat", "1", "--replay")
    assert replay.returncode == 0, replay.stdout + replay.stderr
    (again,) = records(tmp_path)
    assert again["run_id"] != record["run_id"]
    for key in ("scores", "turns", "terminal", "decisions", "result"):
        assert again[key] == record[key]

    moves = json.loads(moves_file.read_text())
    moves[0]["action"] = "9"  # not a column: the game refuses it on replay
    moves_file.write_text(json.dumps(moves))
    broken = play_command(tmp_path, "connect4", "--model", "openai/m", "--name", "bob", "--seat", "1", "--replay")
    assert broken.returncode == 1
    assert "the recorded human move '9' (turn 1) is refused on replay" in broken.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["nope"], "stratbench play: GAME 'nope': no such game; known: "),
    (["tictactoe", "--seat", "2"], "stratbench play: --seat 2: tictactoe has seats 0 and 1\n"),
    (["hanabi", "--seat", "1"], "stratbench play: --seat 1: hanabi has one side (seat 0)\n"),
    (["hanabi", "--model", "openai/m"], "stratbench play: GAME hanabi: you play every seat of this one-sided "
                                        "game; --model and --opponent have no seat to take\n"),
    (["hanabi", "--variant", "9p"], "stratbench play: --variant '9p': hanabi has no such variant; its variants: "
                                    "2p, 3p, 4p, 5p\n"),
    (["tictactoe", "--variant", "big"], "stratbench play: --variant 'big': tictactoe has no variants\n"),
    (["tictactoe", "--opponent", "nobody"], "stratbench play: --opponent: unknown agent 'nobody'; known: "),
    (["tictactoe", "--opponent", "human:eve"], "stratbench play: --opponent human:eve: you are the human seat; "
                                               "choose a model or an agent\n"),
    (["tictactoe", "--name", "a b"], "stratbench play: --name 'a b': expected 1 to 40 letters, digits, '.', '_' "
                                     "or '-'\n"),
    (["tictactoe", "--human-timeout", "0"], "stratbench play: --human-timeout: expected a number of seconds "
                                            "greater than 0, got '0'\n"),
    (["tictactoe", "--port", "70000"], "stratbench play: --port 70000: expected a port from 1 to 65535 "
                                       "(or 0: a free one)\n"),
    (["diplomacy", "--seat", "7"], "stratbench play: --seat 7: diplomacy has seats 0 to 6\n"),
    (["turn_based"], "stratbench play: GAME turn_based: is played by strategies written in rounds (revision "
                     "shape), not move by move: a person cannot take a seat\n"),
])
def test_refused_arguments_get_one_line_and_exit_2(tmp_path, args, message):
    result = play_command(tmp_path, *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "reports").exists()


def test_a_port_in_use_is_refused(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = play_command(tmp_path, "tictactoe", "--port", str(port), "--no-browser")
    assert result.returncode == 2
    assert result.stderr == (f"stratbench play: --port {port}: cannot listen on 127.0.0.1:{port} "
                             "(Address already in use)\n")


SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=2)
def test_tictactoe(match):
    match.play()
"""


def test_the_web_human_refuses_xdist_with_one_line(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-agent", "human", "--human-web",
                                           "-n", "2")
    assert result.ret == 4
    assert ("ERROR: stratbench: --human-web: one person plays one match at a time through one page; run without "
            "-n (xdist)") in result.stderr.lines


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["human", "human:alice"])
def test_pytest_human_web_plays_the_selected_matches_one_after_another(pytester, agent):
    """``--stratbench-agent human[:alice] --human-web``: both matches through one page, recorded as that agent."""
    pytester.makepyfile(test_ttt=SUITE)
    process = pytester.popen([*pytester._getpytestargs(), "-p", "no:cacheprovider", "--stratbench-agent",
                              agent, "--human-web", "--human-no-browser", "--human-port", "0"],
                             stdin=subprocess.DEVNULL)
    address = None
    started = time.monotonic()
    lines = []
    while address is None and time.monotonic() - started < 60:
        line = process.stdout.readline().decode()
        lines.append(line)
        found = re.search(r"stratbench: play at (\S+)", line)
        if found:
            address = found.group(1)
    assert address, "".join(lines)
    base, token = address.split("/?token=")
    games = set()
    while process.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/state?token={token}", timeout=5) as reply:
                state = json.load(reply)
        except OSError:
            break
        if state["decision"]:
            games.add(state["match"]["key"])
            body = json.dumps({"decision": state["decision"]["decision"], "move": state["decision"]["legal"][0]})
            request = urllib.request.Request(f"{base}/move?token={token}", data=body.encode(), method="POST")
            try:
                urllib.request.urlopen(request, timeout=5).close()
            except OSError:
                pass
        time.sleep(0.05)
    process.wait(timeout=60)
    assert process.returncode == 0, process.stdout.read().decode()
    lines = (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()
    played = [json.loads(line) for line in lines]
    assert len(played) == 2 and len(games) == 2
    for record in played:
        assert {side["agent"] for side in record["sides"]} == {agent, "random"}
        assert sum(record["scores"]) == 1.0


@pytest.mark.slow
def test_a_diplomacy_power_is_played_through_the_text_box_and_replays(tmp_path):
    """Diplomacy under pytest: the person's France answers each phase in the models' JSON order format (a
    refused answer shows the parser's reason); six holding powers; recorded, then replayed without a page."""
    repo = Path(__file__).resolve().parents[2]
    common = [sys.executable, "-m", "pytest", str(repo / "suites/spin/test_diplomacy.py"), "-k", "basic_skill and alice",
              "-p", "no:cacheprovider", "-q", "--stratbench-agent", "human:alice", "--stratbench-reference", "off",
              "--stratbench-cassette-dir", str(tmp_path / "cassettes")]
    process = subprocess.Popen([*common, "--human-web", "--human-no-browser", "--report-dir", str(tmp_path / "live")],
                               cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    address, started = None, time.monotonic()
    while address is None and time.monotonic() - started < 120:
        found = re.search(r"stratbench: play at (\S+)", process.stdout.readline().decode())
        address = found.group(1) if found else None
    assert address
    base, token = address.split("/?token=")
    holds = json.dumps({"orders": {"FRANCE": ["A PAR H", "A MAR H", "F BRE H"]}})
    answered, feedback = 0, []
    while process.poll() is None and time.monotonic() - started < 300:
        try:
            with urllib.request.urlopen(f"{base}/state?token={token}", timeout=5) as reply:
                decision = json.load(reply).get("decision")
        except OSError:
            break
        if decision and decision["decision"] != answered:
            answered = decision["decision"]
            feedback.append(decision.get("feedback") or "")
            move = "hold everything" if len(feedback) == 1 else holds  # the first answer is not in the format
            request = urllib.request.Request(f"{base}/move?token={token}", method="POST",
                                             data=json.dumps({"decision": answered, "move": move}).encode())
            urllib.request.urlopen(request, timeout=5).close()
        time.sleep(0.05)
    process.communicate(timeout=60)
    assert process.returncode == 0
    # free text is the game's to read (no list to check it against): the game refused it, as a model's answer,
    # and the page showed its reason with the same decision asked again
    assert feedback[0] == "" and '{"orders"' in feedback[1]
    (record,) = [json.loads(line) for line in (tmp_path / "live/results.jsonl").read_text().splitlines()]
    assert [side["agent"] for side in record["sides"]] == ["hold"] * 2 + ["human:alice"] + ["hold"] * 4
    assert record["illegal"][2] == 1 and record["decisions"][2] == 10  # two movement phases a year, 1901-1905
    assert record["scores"][2] == 3.0  # France holds its three home centres, nobody moves
    replayed = subprocess.run([*common, "--record-mode", "none", "--report-dir", str(tmp_path / "replay")],
                              cwd=repo, capture_output=True, text=True, timeout=300, check=False)
    assert replayed.returncode == 0, replayed.stdout[-2000:]
    (again,) = [json.loads(line) for line in (tmp_path / "replay/results.jsonl").read_text().splitlines()]
    assert (again["scores"], again["decisions"]) == (record["scores"], record["decisions"])


@pytest.mark.slow
def test_stratbench_play_seats_the_person_at_one_diplomacy_power_and_the_agent_at_every_other(tmp_path):
    """``stratbench play diplomacy-nopress --opponent hold --seat 2``: France through the page's text box, six
    holding powers; recorded, then replayed with --replay."""
    play = PlayProcess(tmp_path, "diplomacy-nopress", "--opponent", "hold", "--seat", "2", "--name", "dora")
    holds = json.dumps({"orders": {"FRANCE": ["A PAR H", "A MAR H", "F BRE H"]}})
    answered, roles = 0, set()
    try:
        started = time.monotonic()
        while play.process.poll() is None and time.monotonic() - started < 300:
            try:
                status, state = play.request("/state")
                decision = state.get("decision") if status == 200 else None
                if decision and decision["decision"] != answered:
                    answered = decision["decision"]
                    roles.add(decision.get("role"))
                    assert play.request("/move", body={"decision": answered, "move": holds})[0] == 200
            except OSError:  # the match ended and the page with it
                break
            time.sleep(0.05)
        code, out, err = play.finish()
    finally:
        play.kill()
    assert code == 0, out[-2000:] + err[-2000:]
    assert roles == {"FRANCE"}  # the page asked for the person's power only
    (record,) = records(tmp_path)
    assert [side["agent"] for side in record["sides"]] == ["hold"] * 2 + ["human:dora"] + ["hold"] * 4
    assert record["scores"][2] == 3.0 and record["illegal"][2] == 0 and record["decisions"][2] == 10
    replayed = play_command(tmp_path, "diplomacy-nopress", "--opponent", "hold", "--seat", "2", "--name", "dora",
                            "--replay", timeout=300)
    assert replayed.returncode == 0, replayed.stdout[-2000:] + replayed.stderr[-2000:]
    (again,) = records(tmp_path)
    assert (again["scores"], again["decisions"]) == (record["scores"], record["decisions"])
