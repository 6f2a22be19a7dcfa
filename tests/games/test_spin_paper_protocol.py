"""The paper protocol of SPIN-Bench's competitive games: exact first request bodies, strict reader, retry.

The pinned texts carry every piece the digest quotes from the released code
(``/work/shared/reference/seed-spinbench.md`` §4.5–4.6): the canned opening reply
``Sure, let's start. ``, Tic-Tac-Toe's by-column grid ``0|3|6 / 1|4|7 / 2|5|8`` and
its closing ``Legal moves: [..] You must select one legal move from this list.
You have to win.``, Connect Four's ``Your opponent has made the move, and now the
state is:`` and ``<legal_moves>``, chess's ``You are playing a text game of Chess``,
``<FEN>``, ``<board_state>`` and UCI legal moves, the JSON ``{"reason", "action"}``
answer and the retry message ``Illegal move, try again``.
"""

from __future__ import annotations

import asyncio

import pytest

from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError
from stratbench.games.spin.chess_game import ChessGame
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.direct import direct
from stratbench.scaffolds.parsing import parse_answer
from stratbench.testing.fake_llm import FakeLLMServer

OPENING = {"role": "assistant", "content": "Sure, let's start. "}
JSON_INT = 'Your output should be in this format:\n{"reason": string, "action": int}'
JSON_STRING = 'Your output should be in this format:\n{"reason": string, "action": string}'

TTT_INTRO_X = (
    "You are playing Tic-Tac-Toe. Two players take turns placing their mark in an empty cell of a 3x3 grid. "
    "The first player to get three of their marks in a row, a column or a diagonal wins; if all cells are "
    "filled without such a line, the game is a draw.\n"
    "You are 'X' and you move first; your opponent is 'O'.\n"
    "The cells are numbered by column:\n0|3|6\n1|4|7\n2|5|8\n"
    "Your action is the number of an empty cell. Taking an illegal move ends the game and you lose."
)
TTT_TURN_X = (
    "The current board is ('.' is empty):\n.|.|.\n.|.|.\n.|.|.\n"
    "The cells are numbered as follows:\n0|3|6\n1|4|7\n2|5|8\n"
    f"{JSON_INT}\n"
    "Legal moves: [0, 1, 2, 3, 4, 5, 6, 7, 8] You must select one legal move from this list. You have to win."
)
C4_INTRO_X = (
    "You are playing Connect Four. The board is a vertical grid of 6 rows and 7 columns. Two players take "
    "turns dropping a disc into a column; the disc falls to the lowest empty cell of that column. The first "
    "player to connect four of their discs in a row, horizontally, vertically or diagonally, wins; if the "
    "grid fills up without four in a row, the game is a draw.\n"
    "You are 'X' and you move first; your opponent is 'O'.\n"
    "Your action is the number of a column, from 0 to 6, counted from left to right."
)
C4_TURN_X = (
    "Your opponent has made the move, and now the state is:\n"
    + "|. . . . . . .|\n" * 6
    + " 0 1 2 3 4 5 6\n"
    f"{JSON_INT}\n"
    "<legal_moves>0 1 2 3 4 5 6</legal_moves>\n"
    "You must select one legal move from this list."
)
CHESS_INTRO_WHITE = (
    "You are playing a text game of Chess as White against an opponent playing Black. In the board, your "
    "pieces are represented by uppercase letters (K Q R B N P) and your opponent's by lowercase letters; "
    "'.' is an empty square. White moves first. Checkmate the opponent's king to win.\n"
    "Your action is one legal move in UCI notation: the start square and the end square, plus the promotion "
    "piece if any (for example e2e4, g1f3, e7e8q)."
)
CHESS_TURN_WHITE = (
    "The current state of the game is:\n"
    "<FEN>rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1</FEN>\n"
    "<board_state>\n"
    "8 r n b q k b n r\n7 p p p p p p p p\n6 . . . . . . . .\n5 . . . . . . . .\n"
    "4 . . . . . . . .\n3 . . . . . . . .\n2 P P P P P P P P\n1 R N B Q K B N R\n  a b c d e f g h\n"
    "</board_state>\n"
    f"{JSON_STRING}\n"
    "<legal_moves>a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 g2g3 g2g4 "
    "h2h3 h2h4</legal_moves>\n"
    "You must select one legal move from this list."
)


def _first_observation(game, player=0, moves=()):
    state = game.new_initial_state(0)
    for move in moves:
        (mover,) = state.current_players()
        state.apply({mover: Action(move)})
    return game.observe(state, player)


async def _decide(observation, api_base, attempts):
    client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
    session = ModelSession(client, "openai/m", observation.player, Transcript())
    scaffold = direct(max_tokens=64)
    results = []
    for attempt in range(1, attempts + 1):
        current = observation if attempt == 1 else observation.with_feedback("rejected", attempt)
        try:
            results.append(await scaffold.decide(current, session))
        except ActionParseError as error:
            results.append(error)
    return results


def _bodies(observation, replies):
    answers = iter(replies)
    with FakeLLMServer(responder=lambda body: next(answers)) as server:
        results = asyncio.run(_decide(observation, server.api_base, len(replies)))
        return [r.body["messages"] for r in server.requests], results


@pytest.mark.parametrize(("game", "intro", "turn"), [
    (TicTacToe(protocol="paper"), TTT_INTRO_X, TTT_TURN_X),
    (ConnectFour(protocol="paper"), C4_INTRO_X, C4_TURN_X),
    (ChessGame(protocol="paper"), CHESS_INTRO_WHITE, CHESS_TURN_WHITE),
], ids=["tictactoe", "connect4", "chess"])
def test_the_first_request_body_is_the_released_codes_conversation(game, intro, turn):
    bodies, _ = _bodies(_first_observation(game), ['{"reason": "r", "action": 0}'])
    assert bodies[0] == [{"role": "user", "content": intro}, OPENING, {"role": "user", "content": turn}]


def test_tictactoe_second_player_intro_has_no_illegal_move_warning_and_numbers_cells_by_column():
    # X took the top-right cell (row-by-row 2), which is cell 6 when numbered by column.
    observation = _first_observation(TicTacToe(protocol="paper"), player=1, moves=["2"])
    bodies, results = _bodies(observation, ['{"reason": "centre", "action": 3}'])
    intro, turn = bodies[0][0]["content"], bodies[0][2]["content"]
    assert "You are 'O' and you move second; your opponent is 'X'." in intro
    assert "illegal" not in intro
    assert turn.startswith("The current board is ('.' is empty):\n.|.|X\n.|.|.\n.|.|.\n")
    assert turn.endswith("Legal moves: [0, 1, 2, 3, 4, 5, 7, 8] You must select one legal move from this list. "
                         "You have to win.")
    assert results == [Action("1")]  # by-column 3 is the top-middle cell, row-by-row 1


def test_a_non_json_answer_is_rejected_and_the_retry_is_exactly_the_papers():
    observation = _first_observation(TicTacToe(protocol="paper"))
    bodies, results = _bodies(observation, ["Action: 4", '{"reason": "centre", "action": 4}'])
    assert isinstance(results[0], ActionParseError)
    assert results[1] == Action("4")
    assert bodies[1][3:] == [
        {"role": "assistant", "content": "Action: 4"},
        {"role": "user", "content": "Illegal move, try again"},
    ]
    assert bodies[1][:3] == bodies[0]


@pytest.mark.parametrize("reply", [
    "4", "Action: 4", "```json\n{'reason': 'x', 'action': 4}\n```", '{"reason": "no action here"}', "",
])
def test_the_strict_reader_rejects_answers_without_a_json_action(reply):
    observation = _first_observation(TicTacToe(protocol="paper"))
    with pytest.raises(ActionParseError):
        parse_answer(reply, observation)


def test_the_strict_reader_takes_the_last_valid_json_object():
    observation = _first_observation(ConnectFour(protocol="paper"))
    reply = 'First {"reason": "a", "action": 1}, then {broken, finally {"reason": "b", "action": "5"} done'
    assert parse_answer(reply, observation) == Action("5")


def test_chess_answers_are_uci_mapped_to_san_and_the_released_last_four_characters_fallback():
    observation = _first_observation(ChessGame(protocol="paper"))
    assert parse_answer('{"reason": "", "action": "g1f3"}', observation) == Action("Nf3")
    assert parse_answer('{"reason": "", "action": "Move e2e4"}', observation) == Action("e4")
    # Not a legal move: returned as answered, for the runner to reject.
    assert parse_answer('{"reason": "", "action": "e2e5"}', observation) == Action("e2e5")


def test_default_protocol_observations_are_unchanged():
    for game in (TicTacToe(), ConnectFour(), ChessGame()):
        observation = _first_observation(game)
        assert observation.asking.prompt is None and observation.asking.preamble == ()
        assert observation.asking.retry_prompt == "" and observation.asking.answer_parser == ""
        assert "answer_ids" not in observation.data


def test_an_unknown_protocol_is_one_clear_error():
    with pytest.raises(ValueError, match="tictactoe: unknown protocol 'papr'; known: default, paper"):
        TicTacToe(protocol="papr")


def test_the_constrained_scaffold_sends_the_papers_conversation_unconstrained():
    from stratbench.scaffolds.constrained import constrained

    observation = _first_observation(TicTacToe(protocol="paper"))
    with FakeLLMServer(responder=lambda body: '{"reason": "centre", "action": 4}') as server:
        client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
        session = ModelSession(client, "openai/m", 0, Transcript())
        action = asyncio.run(constrained(max_tokens=64).decide(observation, session))
        (request,) = server.requests
    assert action == Action("4")
    assert "response_format" not in request.raw
    assert request.body["messages"] == [{"role": "user", "content": TTT_INTRO_X}, OPENING,
                                        {"role": "user", "content": TTT_TURN_X}]


def test_the_cot_summary_asks_in_the_papers_action_prompt():
    from stratbench.scaffolds.cot import cot

    observation = _first_observation(TicTacToe(protocol="paper"))
    replies = iter(["The centre is strongest.", '{"reason": "centre", "action": 4}'])
    with FakeLLMServer(responder=lambda body: next(replies)) as server:
        client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
        session = ModelSession(client, "openai/m", 0, Transcript())
        action = asyncio.run(cot(max_tokens=64).decide(observation, session))
        summary = server.requests[-1].body["messages"][-1]["content"]
    action_prompt = TTT_TURN_X.split("\n", 4)[-1]
    assert action_prompt.startswith("The cells are numbered as follows:")
    assert summary == "To summarize, give the one action you choose.\n" + action_prompt
    assert action == Action("4")
