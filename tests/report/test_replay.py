"""The replay viewer's steps: built from real matches' transcripts, one board per applied step, drawn per game."""

from __future__ import annotations

import asyncio
import json
import random
import re
from types import SimpleNamespace

import chess
import pytest
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action
from stratbench.games.spin.chess_game import ChessGame
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe, winner
from stratbench.report.render import render_transcript
from stratbench.families import standalone_registry
from stratbench.report.replay import replay_steps
from page_data import inflated, replay_data


class RandomLegal:
    """A seeded random legal player (open-ended answers get a fixed text)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    async def act(self, observation):
        if observation.legal_actions:
            return Action(self.rng.choice(observation.legal_actions))
        return Action(sorted(observation.open_ended)[0], "pass")


def _renderers():
    return standalone_registry(("reporters",)).board_renderers


def play(game, seed: int = 0, agents=None):
    agents = agents or {p: RandomLegal(seed * 10 + p) for p in range(game.info.num_players)}
    transcript = Transcript()
    outcome = asyncio.run(run_match(game, game.new_initial_state(seed), agents, rng=random.Random(seed),
                                    rules=MatchRules(), transcript=transcript))
    return outcome, transcript.to_list()


@pytest.mark.parametrize("seed", range(5))
def test_tictactoe_boards_follow_every_move_and_end_on_the_final_position(seed):
    outcome, events = play(TicTacToe(), seed)
    boards = [e["board"] for e in events if e["kind"] == "board"]
    assert len(boards) == outcome.turns + 1  # the start and one per applied move
    assert boards[0]["board"] == "." * 9 and boards[0]["last"] is None
    for before, after, move in zip(boards, boards[1:], outcome.history):
        cell = int(next(iter(move.values())))
        assert after["last"] == cell and before["board"][cell] == "." and after["board"][cell] in "XO"
        assert sum(a != b for a, b in zip(before["board"], after["board"])) == 1
    final = boards[-1]["board"]
    assert (winner(final) is not None) or "." not in final
    replay = replay_steps(events, _renderers()["tictactoe"])
    decisions = [s for s in replay["steps"] if s["title"].startswith("turn")]
    assert len(decisions) == outcome.turns
    assert replay["steps"][0]["title"] == "start" and replay["steps"][-1]["title"] == "end"
    # each decision shows the board after its move: the SVG marks that move's cell
    for step, move in zip(decisions, outcome.history):
        svg = replay["boards"][step["board"]]["svg"]
        cell = int(next(iter(move.values())))
        assert svg.count('stroke="#e76f51"') == 1
        assert f'aria-label="Tic-Tac-Toe board {boards[step["board"]]["board"]}"' in svg
        assert boards[step["board"]]["last"] == cell


def test_connect_four_snapshot_grid_matches_the_moves():
    game = ConnectFour()
    outcome, events = play(game, 3)
    boards = [e["board"] for e in events if e["kind"] == "board"]
    assert len(boards) == outcome.turns + 1
    final = boards[-1]
    assert final["moves"] == [int(next(iter(m.values()))) for m in outcome.history]
    assert sum(row.count("X") + row.count("O") for row in final["grid"]) == len(final["moves"])
    rebuilt = game.state_from_moves(final["moves"])
    assert ["".join(row) for row in rebuilt.grid] == final["grid"]
    svg = _renderers()["connect4"](final)
    assert svg.count("<circle") == 42 and svg.count('stroke="#111"') == 1


def test_chess_boards_are_python_chess_svgs_with_the_last_move():
    game = ChessGame()
    agents = {p: RandomLegal(p) for p in range(2)}
    transcript = Transcript()
    state = game.new_initial_state(0)
    for _ in range(6):  # a few plies are enough: the board events follow the moves
        asyncio.run(_one_ply(game, state, agents, transcript))
    boards = [e["board"] for e in transcript.to_list() if e["kind"] == "board"]
    assert boards[-1]["fen"] == state.board.fen()
    assert boards[-1]["lastmove"] == state.board.move_stack[-1].uci()
    svg = _renderers()["chess"](boards[-1])
    assert svg.startswith("<svg") and "lastmove" in svg


async def _one_ply(game, state, agents, transcript):
    from stratbench.core.runner import _log_board

    if not transcript.events:
        _log_board(game, state, transcript)
    player = state.current_players()[0]
    action = await agents[player].act(game.observe(state, player))
    state.apply({player: action})
    _log_board(game, state, transcript)
    chess.Board(state.board.fen())  # the snapshot's position is a real one


def test_a_game_without_snapshots_shows_its_observations_as_the_board():
    from stratbench.games.gamebench.codenames import Codenames

    game = Codenames()
    _, events = play(game, 1)
    assert not [e for e in events if e["kind"] == "board"]
    replay = replay_steps(events)
    decisions = [s for s in replay["steps"] if s["title"].startswith("turn")]
    assert decisions and all(s.get("text_board") and s["board"] is None for s in decisions)
    assert replay["boards"] == []


def test_a_failing_renderer_falls_back_to_the_text_and_says_why():
    _, events = play(TicTacToe(), 0)

    def broken(board):
        raise KeyError("cells")

    replay = replay_steps(events, broken)
    assert all("svg" not in b for b in replay["boards"])
    assert replay["boards"][0]["text"] == ". | . | .\n. | . | .\n. | . | ."
    assert replay["boards"][0]["note"] == "board renderer failed: KeyError: 'cells'"


def test_model_text_cannot_leave_the_replay_data_element():
    evil = "</script><script>alert(1)</script><!--"
    events = [
        {"kind": "observation", "t": 0, "turn": 0, "player": 0, "text": evil, "legal": ["0"]},
        {"kind": "llm_call", "t": 0.1, "player": 0, "model": "m", "messages": [{"role": "user", "content": evil}],
         "response": evil},
        {"kind": "action", "t": 0.2, "turn": 0, "player": 0, "action": "0"},
    ]
    page = render_transcript({"test_id": "t", "game": "tictactoe", "agents": ["a", "b"], "scores": [1, 0],
                              "seed": 0, "subject": 0, "result": "won"}, events)
    for data in re.findall(r'<script type="application/octet-stream" id="\w+-data" data-encoding="gzip\+base64">'
                           r'(.*?)</script>', page, re.DOTALL):
        assert re.fullmatch(r"[A-Za-z0-9+/=]+", data)  # base64: nothing in it can end the element
    steps = replay_data(page)["steps"]
    assert steps[0]["items"][0]["text"] == evil  # shown as text, intact
    assert page.count("<script") == 3  # the replay's data, the list of events and the viewer
    listed = inflated(page)
    assert evil not in listed and "&lt;/script&gt;&lt;script&gt;alert(1)" in listed


def test_pddl_replay_gives_each_step_its_verdict():
    from stratbench.games.spin.pddl import pddl_game
    from stratbench.games.spin.planning.plan_parsing import render_plan

    game = pddl_game("blocksworld/p01")
    state = game.new_initial_state(0)
    from stratbench.games.spin.planning.planners import solve

    solution = solve(game.problem())
    assert solution is not None, "no planner found a plan for blocksworld/p01"
    plan = list(solution.steps)
    bad = [plan[1], *plan]  # the second step first: not applicable at the start
    state.apply({0: Action("plan", "$$ " + json.dumps({"plan": render_plan(bad)}) + " $$")})
    snapshot = game.snapshot(state)
    lines = snapshot["text"].splitlines()
    check = state.check
    assert not check.valid and check.step == 1
    assert "FAILS" in lines[0] and all("not reached" in line for line in lines[1:len(bad)])
    good = game.new_initial_state(0)
    good.apply({0: Action("plan", "$$ " + json.dumps({"plan": render_plan(plan)}) + " $$")})
    lines = game.snapshot(good)["text"].splitlines()
    assert len(lines) == len(plan) + 1
    assert all(line.endswith("applicable") for line in lines[:-1]) and lines[-1] == "valid: the goal is reached"


def test_hanabi_snapshot_shows_each_seats_true_cards_and_what_the_holder_knows():
    from stratbench.games.spin.hanabi import Hanabi, pyspiel_available

    if not pyspiel_available():
        pytest.skip("needs open_spiel")
    game = Hanabi("3p")
    _, events = play(game, 2)
    boards = [e["board"] for e in events if e["kind"] == "board"]
    assert boards, "no Hanabi snapshot was logged"
    # replay the same moves and compare every snapshot with every seat's own view
    state = game.new_initial_state(2)
    applied = [e for e in events if e["kind"] in ("chance", "action", "fallback")]
    checked = 0
    for event in applied:
        player = -1 if event["kind"] == "chance" else event["player"]
        state.apply({player: Action(event.get("outcome") if event["kind"] == "chance" else event["action"])})
        snapshot = game.snapshot(state)
        if snapshot is None:
            continue
        for seat, cards in enumerate(snapshot["seats"]):
            own = state.view(seat).hands[0]
            assert [c["known"] for c in cards] == [c.known for c in own]
            for viewer in range(game.players):
                if viewer != seat:
                    seen = state.view(viewer).hands[(seat - viewer) % game.players]
                    assert [c["card"] for c in cards] == [c.card for c in seen]
        assert sum(snapshot["fireworks"].values()) <= 25 and 0 <= snapshot["life_tokens"] <= 3
        checked += 1
    assert checked >= 3


def test_diplomacy_snapshot_is_the_engine_position_and_the_map_names_its_phase():
    from stratbench.games.spin.agents.diplomacy_baselines import RandomOrdersAgent
    from stratbench.games.spin.diplomacy import Diplomacy, engine_available

    if not engine_available():
        pytest.skip("needs the diplomacy engine")
    game = Diplomacy(end_year=1901)
    agents = {p: RandomOrdersAgent(SimpleNamespace(game=game, rng=random.Random(p))) for p in range(7)}
    outcome, events = play(game, 0, agents)
    boards = [e["board"] for e in events if e["kind"] == "board"]
    assert [b["phase"] for b in boards][:2] == ["S1901M", "F1901M"]
    assert boards[-1]["phase"] in ("S1902M", "COMPLETED")
    final_centres = {power: len(c) for power, c in boards[-1]["centers"].items()}
    assert sum(final_centres.values()) <= 34
    assert sorted(final_centres.values()) == sorted(outcome.scores)
    svg = _renderers()["diplomacy"](boards[1])
    assert svg.startswith("<svg") and "F1901M" not in svg.split(">", 1)[0]
    assert "FALL 1901" in svg.upper() or "F1901M" in svg


def test_a_hanabi_game_is_drawn_from_its_own_snapshots_to_the_end():
    pytest.importorskip("pyspiel")  # the hanabi extra (open-spiel)
    from stratbench.games.spin.hanabi import Hanabi

    outcome, events = play(Hanabi(), 1)
    boards = [e["board"] for e in events if e["kind"] == "board"]
    assert len(boards) == outcome.turns + 1 and outcome.turns > 0
    final = boards[-1]
    score = sum(int(top) for top in final["fireworks"].values())
    assert 0 <= score <= 25 and 0 <= final["life_tokens"] <= 3 and 0 <= final["info_tokens"] <= 8
    svg = _renderers()["hanabi"](final)
    assert svg.startswith("<svg") and 'aria-label="Hanabi table"' in svg
    assert svg.count("<rect") == 1 + len(final["fireworks"]) + sum(len(cards) for cards in final["seats"])


def test_steps_and_the_legend_name_each_seat_by_agent_and_role():
    from stratbench.report.analysis import seat_names
    from stratbench.report.render import render_transcript

    record = {"sides": [{"agent": "random", "players": [0], "roles": ["X"]},
                        {"agent": "minimax", "players": [1], "roles": ["O"]}]}
    seats = seat_names(record)["seats"]
    assert seats == {"0": "random (X)", "1": "minimax (O)"}
    events = [{"kind": "observation", "t": 0.0, "turn": 0, "player": 0, "text": "board", "legal": ["4"]},
              {"kind": "action", "t": 0.1, "turn": 0, "player": 0, "attempt": 1, "action": "4"},
              {"kind": "observation", "t": 0.2, "turn": 1, "player": 1, "text": "board", "legal": ["0"]}]
    titles = [step["title"] for step in replay_steps(events, None, seats)["steps"]]
    assert titles[-2:] == ["turn 0 · random (X)", "turn 1 · minimax (O)"]
    assert [step["title"] for step in replay_steps(events)["steps"]][-1] == "turn 1 · player 1"  # older records
    match = {"match_id": "t[random-vs-minimax-s0]", "game": "tictactoe", "seed": 0, "agents": ["random", "minimax"],
             "scores": [0.0, 1.0], "subject": 0, "result": "lost", "terminal": "O wins", "seats": seats}
    page = render_transcript(match, events, None)
    assert '<p class="muted" id="seats">Seats: player 0: random (X) · player 1: minimax (O)</p>' in page
