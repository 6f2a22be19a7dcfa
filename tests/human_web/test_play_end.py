"""How the page tells a match, in-process: every player named by agent and role, the result said from the
person's side (won, lost, draw) with the final board and the model's last reply, the countdown of a decision,
the forfeit of a person who left the page, and the page kept up until it has shown the end."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, Observation
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.human_web.agent import WebHuman
from stratbench.human_web.run import HumanWebRun
from stratbench.human_web.seating import OPPONENT, result_sentence, seating_of
from stratbench.human_web.table import PAGE_LEFT, HumanTable
from stratbench.match.play import play_and_close

MATCH_ID = "test_play_tictactoe.py::test_play[human:alice-vs-random-s1]"


class Scripted:
    """Plays the given moves in order; as a model would, logs a reply for each (``Action: N``) when told to."""

    def __init__(self, transcript: Transcript, player: int, moves: str, *, model: bool = False) -> None:
        self.transcript, self.player, self.moves, self.model = transcript, player, list(moves), model

    async def act(self, observation: Observation) -> Action:
        move = self.moves.pop(0)
        if self.model:
            self.transcript.add("llm_call", player=self.player, purpose="act",
                                response=f"I take {move}.\nAction: {move}")
        return Action(move)


def _web(table: HumanTable, transcript: Transcript, seat: int, person: str = "human:alice") -> WebHuman:
    context = AgentContext(AgentSpec(kind=person), TicTacToe(), seat, seat, random.Random(0), transcript,
                           options={"match_id": MATCH_ID})
    return WebHuman(context, table, person.partition(":")[2])


def _play(moves: dict[int, str], seat: int, opponent: str, *, model: bool = False) -> dict:
    """Plays Tic-Tac-Toe with scripted moves, the person at ``seat`` against ``opponent``; returns how the page
    shows its end (the table's finished match)."""
    table = HumanTable()
    table.seat_labels[MATCH_ID] = ["human:alice", opponent] if seat == 0 else [opponent, "human:alice"]
    transcript = Transcript()
    game = TicTacToe()
    agents = {player: Scripted(transcript, player, text, model=model and player != seat)
              for player, text in moves.items()}
    asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0), transcript=transcript))
    _web(table, transcript, seat).finish()
    (finished,) = table.finished
    return finished


X_WINS = {0: "012", 1: "34"}
DRAWN = {0: "02738", 1: "1465"}


def test_the_result_is_said_from_the_persons_side_and_names_the_opponent():
    won = _play(X_WINS, 0, "random")
    assert won["sentence"] == "You won against random (X wins)"
    assert won["scores_line"] == "You (X) 1, random (O) 0"
    lost = _play(X_WINS, 1, "openai/gpt-4o+direct")
    assert lost["sentence"] == "You lost against openai/gpt-4o+direct (X wins)"
    assert _play(DRAWN, 0, "minimax")["sentence"] == "Draw against minimax"
    assert _play(DRAWN, 1, "minimax")["sentence"] == "Draw against minimax"


def test_the_end_shows_the_final_board_with_the_last_move_and_the_moves_named_by_agent_and_role():
    won = _play(X_WINS, 0, "random")
    assert 'aria-label="Tic-Tac-Toe board XXXOO...."' in won["board"]  # the winning move (2) is on the board
    assert [move["by"] + ": " + move["action"] for move in won["moves"]] == [
        "You (X): 0", "random (O): 3", "You (X): 1", "random (O): 4", "You (X): 2"]
    lost = _play(X_WINS, 1, "openai/gpt-4o+direct", model=True)
    assert [move["by"] for move in lost["moves"]][:2] == ["openai/gpt-4o+direct (X)", "You (O)"]
    assert lost["last_other"] == {"player": 0, "action": "2", "by": "openai/gpt-4o+direct (X)",
                                  "reply": "I take 2.\nAction: 2"}  # the model's reply for its winning move
    assert lost["versus"] == "You (O) against openai/gpt-4o+direct (X)"


def test_a_decision_names_the_players_and_counts_down_the_time_left():
    table = HumanTable(idle_timeout=60)
    table.seat_labels[MATCH_ID] = ["human:alice", "random"]
    transcript = Transcript()
    web = _web(table, transcript, 0)
    game = TicTacToe()
    agents = {0: web, 1: Scripted(transcript, 1, "4")}
    shown = []

    def page() -> None:  # answers the first two decisions as the page would, keeping what it was shown
        answered = 0
        while answered < 2:
            state = table.view()
            decision = state["decision"]
            if decision and decision["decision"] > answered:
                shown.append(state)
                answered = decision["decision"]
                table.submit(answered, decision["legal"][0])
            threading.Event().wait(0.01)

    person = threading.Thread(target=page)
    person.start()
    with pytest.raises(IndexError):  # the scripted opponent has one move: the match stops at its second
        asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0), transcript=transcript))
    person.join(timeout=30)
    second = shown[1]
    assert second["match"]["versus"] == "You (X) against random (O)" and second["match"]["others"] == "random (O)"
    decision = second["decision"]
    assert [(move["by"], move["action"]) for move in decision["moves"]] == [("You (X)", "0"), ("random (O)", "4")]
    assert decision["last_other"] == {"player": 1, "action": "4", "by": "random (O)", "reply": None}
    assert decision["timeout_s"] == 60 and 0 < decision["seconds_left"] <= 60


def test_a_page_that_stops_polling_forfeits_with_a_reason_that_says_the_person_left():
    table = HumanTable(idle_timeout=60, page_gone_s=0.3)
    table.seat_labels[MATCH_ID] = ["human:alice", "random"]
    transcript = Transcript()
    web = _web(table, transcript, 0)
    game = TicTacToe()
    table.view()  # the page polled once, then went away
    outcome = asyncio.run(play_and_close({0: web}, run_match(game, game.new_initial_state(0),
                                                             {0: web, 1: Scripted(transcript, 1, "")},
                                                             rng=random.Random(0), transcript=transcript)))
    assert outcome.forfeited_by == 0
    (forfeit,) = [event for event in transcript.to_list() if event["kind"] == "fallback"]
    assert forfeit["reason"] == f"{PAGE_LEFT} (no poll for 0.3 s)" and forfeit["fault"] == "human"
    assert PAGE_LEFT == "the page stopped polling: the person left the game"
    web.finish()
    (finished,) = table.finished
    assert finished["sentence"] == ("You lost against random (you forfeited: the page stopped polling: the person "
                                    "left the game (no poll for 0.3 s))")


def test_the_opponent_is_named_after_its_forfeit_and_an_untold_opponent_has_a_plain_name():
    seating = seating_of(["random", "human:bob"], [[0], [1]], {0: "X", 1: "O"}, "human:bob", 1)
    summary = {"scores": [0.0, 1.0], "terminal": "forfeit by player 0", "forfeit": None, "forfeit_by": 0}
    assert result_sentence(seating, summary) == "You won against random (random (X) forfeited)"
    untold = seating_of(None, [[0], [1]], {0: "X", 1: "O"}, "human:bob", 1)
    assert untold.versus() == f"You (O) against {OPPONENT} (X)"
    assert result_sentence(untold, {"error": "boom"}) == "The match stopped: boom"
    alone = seating_of(["human:bob"], [[0, 1]], {0: "player 0", 1: "player 1"}, "human:bob", 0)
    assert result_sentence(alone, {"scores": [17.0], "terminal": "deck exhausted"}) == "You scored 17 (deck exhausted)"


def test_the_run_waits_for_an_open_page_to_show_the_end_and_not_for_a_page_nobody_opened():
    unwatched = HumanWebRun(open_browser=False)
    unwatched.table.finished.append({"key": "m"})
    assert unwatched.show_the_end(grace_s=60, write=lambda line: None) is False  # no page ever polled: no wait
    unwatched.stop()

    web = HumanWebRun(open_browser=False)
    web.table.finished.append({"key": "m"})
    web.table.view()  # the page is open
    lines: list[str] = []
    states: list[dict] = []
    waiting = threading.Thread(target=lambda: states.append(web.show_the_end(grace_s=60, write=lines.append)))
    waiting.start()
    while not web.table.closed:
        threading.Event().wait(0.01)
    final = web.table.view()  # the page's next poll fetches the end
    waiting.join(timeout=30)
    web.stop()
    assert states == [True] and final["closed"] is True and final["finished"] == [{"key": "m"}]
    assert lines == ["stratbench: the page shows how the match ended; it stays up until the page has shown it (at "
                     "most 60 s); Ctrl-C ends it now"]
