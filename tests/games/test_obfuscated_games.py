"""Renamed variants (``--obfuscate``) of Tic-Tac-Toe, Connect Four, Hanabi and Pit.

Three promises, checked with real engines: a renamed game plays exactly as
the original (the same seed and the same random choices give the same
scores, end, turns and history); nothing the model is shown names an
original identifier (``random`` and ``mystery``); and without a renaming the
observations are today's.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import re

import pytest

from stratbench.core.obfuscation import Obfuscation
from stratbench.core.runner import MatchRules, _canonical, run_match
from stratbench.core.types import Action, ActionParseError, IllegalActionError, Observation
from stratbench.games.gamebench.pit import Pit
from stratbench.games.spin import hanabi
from stratbench.games.spin.agents.c4_solver_agent import C4SolverAgent
from stratbench.games.spin.agents.minimax import MinimaxAgent
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.scaffolds.prompt import game_prompt

needs_hanabi = pytest.mark.skipif(not hanabi.pyspiel_available(), reason=hanabi.INSTALL_HINT)

MODES = ("random", "mystery", "deceptive")
PLAYOUTS = 100


def _factory(name: str):
    return {
        "tictactoe": TicTacToe,
        "connect4": ConnectFour,
        "hanabi": lambda obfuscation=None: hanabi.Hanabi("2p", obfuscation=obfuscation),
        "pit": lambda obfuscation=None: Pit(max_rounds=20, obfuscation=obfuscation),
    }[name]


GAMES = ["tictactoe", "connect4", pytest.param("hanabi", marks=needs_hanabi), "pit"]


def _playout(game, seed: int, seen: list[Observation] | None = None, refusals: list[str] | None = None) -> tuple:
    """Plays ``seed`` with choices drawn by position in the legal-action list, each answer read back by the game.

    The k-th legal action shown is the k-th legal action of the engine (the
    labels are listed in the engine's order), so the same generator makes the
    same (mapped) choices with and without a renaming.
    """
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        joint = {}
        for player in state.current_players():
            observation = game.observe(state, player)
            if seen is not None:
                seen.append(observation)
            if refusals is not None:
                refusals.append(_refusal(game, state, player))
            shown = observation.legal_actions[rng.randrange(len(observation.legal_actions))]
            joint[player] = Action(game.canonical_action(state, player, shown))
        state.apply(joint)
    return state.scores(), state.terminal_reason(), state.turn, state.history


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GAMES)
def test_a_renamed_game_plays_exactly_as_the_original(name: str, mode: str) -> None:
    factory = _factory(name)
    ends = set()
    for seed in range(PLAYOUTS):
        original = _playout(factory(), seed)
        renamed = _playout(factory(obfuscation=Obfuscation(mode, seed % 5)), seed)
        assert renamed == original, f"seed {seed}"
        ends.add((tuple(original[0]), original[1]))
    assert len(ends) >= 2  # the playouts reached different ends (scores, reasons)


# -- nothing shown names an original --------------------------------------------------------------

_ORIGINALS = {
    "tictactoe": {"X", "O", *map(str, range(9))},
    "connect4": {"X", "O", *map(str, range(7))},
    "pit": {"wheat", "barley", "corn", "soybeans", "bull", "bear", "offer", "accept", "withdraw", "pass"},
}
"""Whole words that name an original identifier (matched case-insensitively, except the marks).

Tic-Tac-Toe's and Connect Four's renamed rules spell their sizes out ("three-by-three", "seven columns"),
so no digit at all may stand alone: every number names a cell or column. The marks X and O are checked as
whole upper-case words (the English word "o" never occurs). Pit's names are matched whatever their case;
derived words ("offers", "cornered", "accepted") are other words, and the text keeps them.
"""
_COLOUR_LETTERS = set("RYGWB")
_COLOUR_WORDS = {"red", "yellow", "green", "white", "blue"}


def _shown(observation: Observation, refusal: str = "") -> str:
    """Everything the model reads for one decision: the scaffold's prompt, the game's own prompt and system
    prompt, the outcome line, and the refusal of a wrong answer."""
    asking = observation.asking
    parts = [game_prompt(observation), asking.prompt or "", asking.system_prompt or "", observation.outcome,
             *observation.legal_actions, refusal]
    return "\n".join(parts)


def _refusal(game, state, player: int) -> str:
    """The retry message a wrong answer gets (the runner's check, then the game's own)."""
    try:
        _canonical(game, state, player, Action("nonsense"))
    except (ActionParseError, IllegalActionError) as error:
        return str(error)
    raise AssertionError("'nonsense' was accepted")


def _leaks(name: str, text: str) -> set[str]:
    words = set(re.findall(r"[A-Za-z0-9]+", text))
    if name == "hanabi":  # cards, hints and colours are upper-case words: B3, RX, RYG12, 'R stack'
        codes = {w for w in words if re.fullmatch(r"[A-Z]+[0-9X]*", w)}
        return {w for w in codes if set(w) & _COLOUR_LETTERS} | {w for w in words if w.lower() in _COLOUR_WORDS}
    originals = _ORIGINALS[name]
    marks = {"X", "O"} & originals
    return {w for w in words if w in marks or (w not in {"x", "o"} and w.lower() in originals - marks)}


@pytest.mark.parametrize("mode", ["random", "mystery"])
@pytest.mark.parametrize("name", GAMES)
def test_nothing_shown_names_an_original(name: str, mode: str) -> None:
    factory = _factory(name)
    for seed in range(3):
        seen: list[Observation] = []
        refusals: list[str] = []
        _playout(factory(obfuscation=Obfuscation(mode, seed)), seed, seen, refusals)
        assert len(seen) >= 5 and len(refusals) == len(seen)
        shown = [_shown(observation, refusal) for observation, refusal in zip(seen, refusals)]
        leaks = {word for text in shown for word in _leaks(name, text)}
        assert leaks == set(), f"seed {seed}"
        # the check is not vacuous: the original game shows these names, in its prompts and in its refusals
        original: list[Observation] = []
        original_refusals: list[str] = []
        _playout(factory(), seed, original, original_refusals)
        assert {w for o in original for w in _leaks(name, _shown(o))}
        assert name == "hanabi" or {w for r in original_refusals for w in _leaks(name, r)}


def test_the_leak_check_catches_a_colour_word_and_a_card() -> None:
    assert _leaks("hanabi", "You can see the card: 'B3', one of ZPMQE12345; the red stack") == {"B3", "red"}
    assert _leaks("tictactoe", "Cell 4 holds X; the board is 'xo' fine") == {"4", "X"}
    assert _leaks("pit", "Offers: 2 Wheat; you may PASS") == {"Wheat", "PASS"}


# -- without a renaming: today's observations ----------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_without_a_renaming_the_observations_are_unchanged(name: str) -> None:
    factory = _factory(name)
    for seed in range(3):
        plain: list[Observation] = []
        explicit: list[Observation] = []
        assert _playout(factory(), seed, plain) == _playout(factory(obfuscation=None), seed, explicit)
        assert plain == explicit


_TODAYS_OBSERVATIONS = {
    "tictactoe": "e19f77f0b59c05c6a8f3dcb70061f890b7cc5c2902912b0b0b310ef24b43ce89",
    "connect4": "a5a833ae47413f124649a69ab618c9f31c316c7352b41737e4db0f68c1be5f00",
    "hanabi": "379b18c5077dd2862ea22d6c0fc5201eb0205ec069a48735fe62f0a6db7cdf6c",
    "pit": "b5394a3c333713def8cf99c550f360744053cdd690c143059216dc1d69172edd",
}
"""The sha256 of every observation's ``repr`` over seeds 0-2 of :func:`_playout`, as the games rendered them before
renamed variants existed (main at ab53505). Update only with a deliberate change to a game's wording."""


@pytest.mark.parametrize("name", GAMES)
def test_without_a_renaming_every_observation_is_the_one_rendered_before_renaming_existed(name: str) -> None:
    digest = hashlib.sha256()
    for seed in range(3):
        seen: list[Observation] = []
        _playout(_factory(name)(), seed, seen)
        for observation in seen:
            digest.update(repr(observation).encode())
    assert digest.hexdigest() == _TODAYS_OBSERVATIONS[name]


def test_tictactoe_without_a_renaming_shows_todays_text() -> None:
    game = TicTacToe()
    state = game.new_initial_state(0)
    state.apply({0: Action("4")})
    observation = game.observe(state, 1)
    assert observation.text == (
        "You play O.\nCurrent board (. = empty):\n. | . | .\n. | X | .\n. | . | .\n"
        "Cell numbers:\n0 | 1 | 2\n3 | 4 | 5\n6 | 7 | 8"
    )
    assert observation.legal_actions == ("0", "1", "2", "3", "5", "6", "7", "8")
    assert "labels" not in observation.data


def test_connect4_without_a_renaming_shows_todays_text() -> None:
    game = ConnectFour()
    state = game.new_initial_state(0)
    state.apply({0: Action("3")})
    observation = game.observe(state, 1)
    assert observation.text.splitlines()[-2:] == [" 0 1 2 3 4 5 6", "Columns played so far, in order: 3"]
    assert observation.legal_actions == tuple("0123456")


# -- the answer is read back; what the renaming looks like ---------------------------------------------


def test_tictactoe_reads_a_cell_name_back_and_refuses_the_original_number() -> None:
    game = TicTacToe(obfuscation=Obfuscation("mystery", 7))
    state = game.new_initial_state(0)
    observation = game.observe(state, 0)
    centre = observation.data["labels"]["4"]
    assert centre in observation.legal_actions and centre in observation.rules.summary
    assert game.canonical_action(state, 0, f" {centre.upper()} ") == "4"
    with pytest.raises(IllegalActionError) as refused:
        game.canonical_action(state, 0, "4")
    assert str(refused.value) == f"'4' is not a legal action. Legal actions: {', '.join(observation.legal_actions)}"
    assert observation.role not in {"X", "O"} and len(observation.role) == 1
    assert game.snapshot(state)["board"] == "." * 9  # the replay board keeps the original names


def test_deceptive_marks_swap_and_cells_take_each_others_numbers() -> None:
    game = ConnectFour(obfuscation=Obfuscation("deceptive", 3))
    state = game.new_initial_state(0)
    observation = game.observe(state, 0)
    assert observation.role == "O"  # the first player is told it plays O
    labels = observation.data["labels"]
    assert sorted(labels.values()) == list("0123456") and all(k != v for k, v in labels.items())
    assert game.canonical_action(state, 0, f"column {labels['2']}") == "2"


def test_hanabi_colours_are_letters_renamed_in_descriptions_and_answers() -> None:
    pytest.importorskip("pyspiel")
    game = hanabi.Hanabi("2p", obfuscation=Obfuscation("random", 1))
    state = game.new_initial_state(0)
    letters = game.colours.letters
    assert sorted(letters) == sorted("RYGWB") and not set(letters.values()) & set("RYGWBXNCV")
    observation = game.observe(state, 0)
    hint = next(a for a in observation.legal_actions if "color" in state.describe(a))
    original = state.describe(hint)  # "(Reveal player +1 color R)"
    renamed = original[:-2] + letters[original[-2]] + ")"
    assert f"{hint}: '{renamed}'" in observation.asking.prompt
    assert game.canonical_action(state, 0, renamed) == hint
    assert game.canonical_action(state, 0, original) is None
    assert observation.data["legal"][hint] == original  # the baselines' view keeps the engine's letters


def test_pit_reads_renamed_words_back_and_words_a_refusal_in_them() -> None:
    game = Pit(obfuscation=Obfuscation("mystery", 2))
    state = game.new_initial_state(0)
    words = game.words
    offer = next(a for a in game.observe(state, 0).legal_actions if a.startswith(words.renamed["offer"]))
    original = game.canonical_action(state, 0, offer.upper())
    assert original.startswith("offer ") and words.forward(original) == offer
    with pytest.raises(ActionParseError) as refused:  # the Bull alone is no set
        game.canonical_action(state, 0, f"{words.renamed['offer']} 4 {words.renamed['bull'].lower()}")
    message = str(refused.value)
    assert not {w.lower() for w in re.findall(r"[A-Za-z]+", message)} & _ORIGINALS["pit"] - {"offer"}
    assert words.renamed["offer"] in message or words.renamed["bull"] in message


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "hanabi", "pit"])
def test_a_paper_protocol_refuses_a_renaming(name: str) -> None:
    make = {"tictactoe": TicTacToe, "connect4": ConnectFour, "pit": Pit,
            "hanabi": lambda **kw: hanabi.Hanabi("2p", **kw)}[name]
    with pytest.raises(ValueError, match=rf"^{name}: --obfuscate renames the default protocol only, not the 'paper'"):
        make(protocol="paper", obfuscation=Obfuscation("random"))


def test_the_four_games_declare_support_and_chess_does_not() -> None:
    from stratbench.games.spin.chess_game import ChessGame

    assert [game.supports_obfuscation for game in (TicTacToe, ConnectFour, hanabi.Hanabi, Pit)] == [True] * 4
    assert not getattr(ChessGame, "supports_obfuscation", False)


# -- through the runner: engine opponents and the random fallback answer in the new names -------------


class _Context:
    def __init__(self, game, player: int, seed: int) -> None:
        self.game, self.player, self.rng = game, player, random.Random(seed)


class _Nonsense:
    async def act(self, observation: Observation) -> Action:
        return Action("nonsense")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", GAMES)
def test_the_random_fallback_plays_the_renamed_game_as_the_original(name: str, mode: str) -> None:
    """Every answer is refused, so the runner's random fallback picks each move from the shown labels."""
    factory = _factory(name)
    outcomes = []
    for obfuscation in (None, Obfuscation(mode, 1)):
        game = factory(obfuscation=obfuscation)
        agents = {p: _Nonsense() for p in range(game.info.num_players)}
        outcome = asyncio.run(run_match(game, game.new_initial_state(2), agents, rng=random.Random(3),
                                        rules=MatchRules(fallback="random")))
        outcomes.append((outcome.scores, outcome.terminal, outcome.turns, outcome.history, outcome.fallbacks))
    assert outcomes[0] == outcomes[1]
    assert sum(outcomes[0][4].values()) == outcomes[0][2] * (4 if name == "pit" else 1)


@pytest.mark.parametrize(("make", "engine"), [(TicTacToe, MinimaxAgent), (ConnectFour, C4SolverAgent)])
def test_an_engine_beats_random_fallbacks_in_the_renamed_game_as_in_the_original(make, engine) -> None:
    if engine is C4SolverAgent:
        pytest.importorskip("stratbench.games.spin.c4_solver")
    outcomes = []
    for obfuscation in (None, Obfuscation("mystery", 4)):
        game = make(obfuscation=obfuscation)
        agents = {0: engine(_Context(game, 0, 1)), 1: _Nonsense()}
        outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(5),
                                        rules=MatchRules(fallback="random")))
        outcomes.append((outcome.scores, outcome.terminal, outcome.history, outcome.fallbacks))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == [1.0, 0.0] and outcomes[0][3][1] >= 3


# -- the one-character renaming the marks and colour letters use -------------------------------------


@pytest.mark.parametrize("mode", ["random", "mystery"])
def test_an_alphabet_renames_to_distinct_single_characters_seeded_by_scope(mode: str) -> None:
    obfuscation = Obfuscation(mode, 3)
    renamed = obfuscation.rename(list("RYGWB"), "hanabi:colour", alphabet="ADEFHJKLMPQSTUZ")
    assert sorted(renamed) == sorted("RYGWB")
    assert len(set(renamed.values())) == 5 and all(len(v) == 1 and v in "ADEFHJKLMPQSTUZ" for v in renamed.values())
    assert renamed == obfuscation.rename(list("RYGWB"), "hanabi:colour", alphabet="ADEFHJKLMPQSTUZ")
    with pytest.raises(ValueError, match=r"^2 names need 2 free characters, 'XOA' has 1$"):
        obfuscation.rename(["X", "O"], "m", alphabet="XOA")
    assert Obfuscation("deceptive", 3).rename(["X", "O"], "m", alphabet="AB") == {"X": "O", "O": "X"}


@pytest.mark.parametrize("mode", ["random", "mystery", "deceptive"])
def test_a_renamed_game_never_names_itself_in_its_prompt(mode):
    from stratbench.games.spin.connect_four import ConnectFour
    from stratbench.games.spin.tictactoe import TicTacToe
    from stratbench.scaffolds.prompt import game_prompt

    for make, names in ((TicTacToe, ("tic-tac-toe", "tictactoe", "tic tac toe", "noughts")),
                        (ConnectFour, ("connect four", "connect 4", "connect4"))):
        game = make(obfuscation=Obfuscation(mode, 7))
        observation = game.observe(game.new_initial_state(0), 0)
        prompt = game_prompt(observation).lower()
        assert prompt.startswith(f"you are playing a game called {observation.rules.title.lower()}.")
        assert not any(name in prompt for name in names), (mode, make.__name__, prompt[:200])
        # the committed reference probes were recorded naming the game: kept for them alone
        kept = make(obfuscation=Obfuscation(mode, 7), renamed_title=False)
        assert kept.observe(kept.new_initial_state(0), 0).rules.title == make.rules.title
