"""Observation = what the game shows + Asking (how the decision is asked); the old flat spellings, deprecated."""

from __future__ import annotations

import dataclasses
import re
import warnings

import pytest

from stratbench.core.types import ASKING_FIELDS, SCAFFOLD_DEFAULT, Asking, Observation, Rules
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe

RULES = Rules("Pick", "Pick a letter.")
MOVED = {"instructions", "answer_format", "retry_prompt", "answer_parser", "prompt_style", "prompt",
         "system_prompt", "primer", "preamble", "conversation"}
SHOWN = {"game", "player", "text", "legal_actions", "rules", "open_ended", "role", "turn", "image_png", "feedback",
         "attempt", "data", "messages", "negotiation", "outcome", "outcome_negative"}


def _view(**kwargs):
    return Observation("pick", 0, "choose", ("a", "b"), RULES, **kwargs)


def test_the_game_view_and_the_protocol_settings_are_apart():
    assert {f.name for f in dataclasses.fields(Asking)} == MOVED == ASKING_FIELDS
    assert {f.name for f in dataclasses.fields(Observation)} == SHOWN | {"asking"}
    plain = _view()
    assert plain.asking is SCAFFOLD_DEFAULT and plain.asking == Asking()
    assert (plain.asking.prompt, plain.asking.system_prompt, plain.asking.preamble) == (None, None, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain.asking.prompt = "changed"  # type: ignore[misc]
    asked = plain.with_asking(answer_format="JSON", conversation="S1901M")
    assert asked.asking == Asking(answer_format="JSON", conversation="S1901M")
    assert dataclasses.replace(asked, asking=SCAFFOLD_DEFAULT) == plain
    assert asked.with_feedback("no", 2).asking is asked.asking


def test_old_keywords_warn_naming_the_new_place_and_land_in_asking():
    preamble = ({"role": "user", "content": "hi"},)
    message = ("Observation(answer_format=..., preamble=..., prompt=...) is deprecated; "
               "pass asking=Asking(answer_format=..., preamble=..., prompt=...)")
    with pytest.warns(DeprecationWarning, match=f"^{re.escape(message)}$") as caught:
        old = _view(prompt="Pick one.", answer_format="JSON", preamble=preamble, turn=3)
    assert caught[0].filename == __file__  # blamed on the caller, not on stratbench
    assert old.asking == Asking(prompt="Pick one.", answer_format="JSON", preamble=preamble)
    assert old == _view(turn=3, asking=Asking(prompt="Pick one.", answer_format="JSON", preamble=preamble))
    with pytest.warns(DeprecationWarning, match=re.escape("pass asking=Asking(retry_prompt=...)")) as caught:
        retried = dataclasses.replace(old, retry_prompt="Again.")
    assert caught[0].filename == __file__
    assert retried.asking == Asking(prompt="Pick one.", answer_format="JSON", preamble=preamble, retry_prompt="Again.")
    with pytest.warns(DeprecationWarning):
        both = _view(asking=Asking(primer="Ready?"), conversation="c1")
    assert both.asking == Asking(primer="Ready?", conversation="c1")


@pytest.mark.parametrize("name", sorted(MOVED))
def test_old_attribute_reads_warn_naming_the_new_place_and_read_asking(name):
    value = {"prompt": "Pick one.", "system_prompt": "Be brief.", "preamble": ({"role": "user", "content": "hi"},)}
    asking = Asking(**{name: value.get(name, f"the {name}")})
    observation = _view(asking=asking)
    message = f"Observation.{name} is deprecated; read Observation.asking.{name}"
    with pytest.warns(DeprecationWarning, match=f"^{re.escape(message)}$") as caught:
        read = getattr(observation, name)
    assert caught[0].filename == __file__
    assert read == getattr(asking, name) == value.get(name, f"the {name}")


def test_unknown_attributes_still_raise_attribute_error():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="'Observation' object has no attribute 'answer'"):
            _view().answer  # noqa: B018
        assert not hasattr(_view(), "asking_prompt")


@pytest.mark.parametrize(("game", "paper"), [(TicTacToe, False), (TicTacToe, True), (ConnectFour, True)])
def test_games_fill_asking_without_the_old_spellings(game, paper):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        instance = game(protocol="paper") if paper else game()
        observation = instance.observe(instance.new_initial_state(0), 0)
    asking = observation.asking
    assert asking.instructions.startswith("Answer with the number")
    if paper:
        assert asking.retry_prompt == "Illegal move, try again" and asking.answer_parser
        assert asking.prompt.endswith("You must select one legal move from this list." if game is ConnectFour
                                      else "You must select one legal move from this list. You have to win.")
        assert [m["role"] for m in asking.preamble] == ["user", "assistant"]
    else:
        assert asking == Asking(instructions=asking.instructions)
