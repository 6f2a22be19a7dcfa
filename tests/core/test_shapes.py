"""Match shapes: each game declares one, and the shape is looked up by that name only."""

from __future__ import annotations

import pytest

from stratbench.core.game import Game, GameBase, GameInfo
from stratbench.core.revision import RevisionGame
from stratbench.core.shapes import MOVES, REVISION, UnknownShapeError, find_shape
from stratbench.core.types import HarnessError, Rules
from stratbench.games.advgame.game import AdvGame
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.match.moves import MovesShape
from stratbench.match.revision import RevisionShape
from stratbench.match.shapes import MATCH_SHAPES, shape_of


class Auction(GameBase):
    """A game of a shape nobody plays."""

    shape = "auction"

    def __init__(self) -> None:
        self.info = GameInfo(name="sealed_bids", num_players=2, sides=((0,), (1,)), max_turns=1)
        self.rules = Rules("Sealed bids", "Each side bids once.")


def test_the_two_bases_declare_the_two_shapes_and_each_shape_object_is_keyed_by_its_name():
    assert (MOVES, REVISION) == ("moves", "revision")
    assert (Game.shape, RevisionGame.shape) == (MOVES, REVISION)
    assert TicTacToe().shape == MOVES and AdvGame("battle_card").shape == REVISION
    assert {name: type(shape) for name, shape in MATCH_SHAPES.items()} == {MOVES: MovesShape, REVISION: RevisionShape}
    assert isinstance(shape_of(TicTacToe()), MovesShape) and isinstance(shape_of(AdvGame("turn_based")), RevisionShape)


def test_a_revision_game_is_not_a_move_game():
    game = AdvGame("tower_defense")
    assert not isinstance(game, Game) and isinstance(game, GameBase)
    assert not hasattr(game, "new_initial_state") and not hasattr(game, "observe")
    assert (game.role(0), game.role(1)) == ("human", "demon")


def test_an_unknown_shape_is_one_error_naming_the_game_and_the_shape():
    with pytest.raises(UnknownShapeError) as error:
        shape_of(Auction())
    assert str(error.value) == ("game 'sealed_bids' declares the match shape 'auction', which no match shape plays; "
                                "known shapes: moves, revision")
    assert isinstance(error.value, HarnessError)


def test_a_game_that_declares_no_shape_is_refused_the_same_way():
    class Shapeless(GameBase):
        def __init__(self) -> None:
            self.info = GameInfo(name="shapeless", num_players=1, sides=((0,),), max_turns=1)

    with pytest.raises(UnknownShapeError) as error:
        find_shape(Shapeless(), {MOVES: MovesShape()})
    assert str(error.value) == "game 'shapeless' declares no match shape; known shapes: moves"
