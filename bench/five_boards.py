"""Does a model follow the default Tic-Tac-Toe answer format? Five boards, temperature 0.

Each of five fixed positions is asked once, with the default protocol's
direct prompt (system prompt, board, legal cells, ``Action: <action>``
line), exactly as a match's first request is built. A reply counts when its
first non-empty line is ``Action: <cell>`` and the cell is empty on that
board.

The requests go through litellm and a vcrpy cassette: ``--record`` asks the
live local model (llama.cpp, ``STRATBENCH_LOCAL_THREADS`` threads) and
writes the cassette; without it the committed cassette is replayed offline
(``tests/llm/test_five_boards.py`` does that and checks the count).

Usage:
    python bench/five_boards.py [--model local/qwen2.5-coder-0.5b] [--record]
    python bench/five_boards.py --model local/smollm2-135m --gguf SmolLM2-135M-Instruct.Q4_1.gguf --record
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from stratbench.core.types import Action  # noqa: E402
from stratbench.games.spin.tictactoe import TicTacToe  # noqa: E402
from stratbench.llm import cassettes, local  # noqa: E402
from stratbench.llm.client import without_stable_marks  # noqa: E402
from stratbench.scaffolds.base import ConversationScaffold  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "llm" / "data"
BOARDS = ("", "4", "40", "408", "0418")
"""Cells marked so far, in order (X first): the five positions asked."""
REQUEST = {"temperature": 0.0, "seed": 0, "max_tokens": 48}
"""The reference run's request settings (cassettes/reference.json's max_tokens)."""
ANSWER = re.compile(r"^Action:\s*(\d)\s*$")


@dataclass(frozen=True)
class Answer:
    """One board's reply and whether it is ``Action: <legal cell>``."""

    board: str
    legal: tuple[str, ...]
    reply: str

    @property
    def cell(self) -> str | None:
        """Returns the cell of a first line ``Action: <digit>``, else None."""
        first = next((line.strip() for line in self.reply.splitlines() if line.strip()), "")
        match = ANSWER.match(first)
        return match.group(1) if match else None

    @property
    def ok(self) -> bool:
        """Tells whether the reply names a legal cell in the asked format."""
        return self.cell in self.legal


def first_requests() -> list[tuple[str, tuple[str, ...], list[dict]]]:
    """Returns each position's board, legal cells and default-protocol direct messages."""
    game = TicTacToe()
    asked = []
    for moves in BOARDS:
        state = game.new_initial_state(0)
        for cell in moves:
            (player,) = state.current_players()
            state.apply({player: Action(cell)})
        (player,) = state.current_players()
        observation = game.observe(state, player)
        opened = asyncio.run(ConversationScaffold().open(observation, SimpleNamespace(vision=False)))
        messages = without_stable_marks(opened)  # as the client sends them
        asked.append((state.board, observation.legal_actions, messages))
    return asked


def cassette_for(model: str) -> Path:
    """Returns the committed cassette of a model's five answers."""
    return DATA / f"five_boards_{cassettes.safe_component(local.local_name(model))}.yaml"


def ask(model: str, record: bool, gguf: Path | None = None) -> list[Answer]:
    """Asks the five boards (live when ``record``, else from the cassette) and returns the answers."""
    import litellm

    models = local.LocalModels(files={local.local_name(model): gguf} if gguf else {})
    api_base = models.api_base(local.local_name(model)) if record else local.REPLAY_API_BASE
    answers = []
    try:
        with cassettes.use_cassette(cassette_for(model), "all" if record else "none"):
            for board, legal, messages in first_requests():
                reply = litellm.completion(
                    model=local.litellm_model(model), api_base=api_base, api_key="local", messages=messages, **REQUEST
                )
                answers.append(Answer(board, legal, reply.choices[0].message.content or ""))
    finally:
        models.close()
    return answers


def main(argv: list[str] | None = None) -> int:
    """Prints each board's reply and the count of legal ``Action: <cell>`` answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local/qwen2.5-coder-0.5b")
    parser.add_argument("--record", action="store_true", help="ask the live local model and write the cassette")
    parser.add_argument("--gguf", type=Path, help="the GGUF of a local model that is not built in")
    args = parser.parse_args(argv)
    answers = ask(args.model, args.record, args.gguf)
    for answer in answers:
        print(f"{answer.board}  {'legal' if answer.ok else 'NO   '}  {answer.reply.strip()[:70]!r}")
    print(f"{args.model}: legal `Action: <cell>` on {sum(a.ok for a in answers)} of {len(answers)} boards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
