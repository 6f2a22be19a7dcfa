"""AdvGameBench shared rules: the budget rule and the released code's way of reading JSON answers."""

import pytest

from stratbench.games.advgame.common import decide_winner, read_strategy_json

BUDGETS = {"human": 2000, "demon": 1500}


def test_within_budget_the_simulation_decides():
    verdict = decide_winner("demon", {"human": 2000, "demon": 1500}, BUDGETS)
    assert (verdict.winner, verdict.reason) == ("demon", "simulation")


def test_one_side_over_budget_loses_whatever_the_simulation_says():
    verdict = decide_winner("human", {"human": 2001, "demon": 100}, BUDGETS)
    assert (verdict.winner, verdict.reason) == ("demon", "over budget: human")


def test_both_over_the_smaller_relative_overage_wins():
    # human 10% over (2200/2000), demon 20% over (1800/1500): human wins although it overspent more in absolute terms.
    verdict = decide_winner("demon", {"human": 2200, "demon": 1800}, BUDGETS)
    assert (verdict.winner, verdict.reason) == ("human", "both over budget")


def test_equal_relative_overage_is_a_draw():
    verdict = decide_winner("demon", {"human": 2200, "demon": 1650}, BUDGETS)
    assert verdict.winner is None
    assert verdict.reason == "both over budget, equal relative overage: draw"


def test_simulated_draw_within_budget_stays_a_draw():
    assert decide_winner(None, {"human": 1, "demon": 1}, BUDGETS).winner is None


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"humans": [{"name": "HandgunSoldier", "x": 0, "y": 0}]}\n```',
        "Here it is:\n```\n{'humans': [{'name': 'HandgunSoldier', 'x': 0, 'y': 0}]}\n```",
        '"{\\"humans\\": []}"'.replace('\\"', '"').replace('"{', "{").replace('}"', "}"),
        "Sure! {'humans': [{'name': 'HandgunSoldier', 'x': 0, 'y': 0}]} Good luck.",
    ],
)
def test_read_strategy_json_accepts_fenced_blocks_and_single_quotes(text):
    value = read_strategy_json(text)
    assert list(value) == ["humans"]


def test_read_strategy_json_rejects_non_objects_and_garbage_with_one_line():
    with pytest.raises(ValueError, match="strategy must be a JSON object, got list"):
        read_strategy_json("[1, 2]")
    with pytest.raises(ValueError, match="^strategy is not valid JSON: "):
        read_strategy_json("I will place soldiers everywhere")
