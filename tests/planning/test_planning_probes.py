"""The planning probes: seeded generation, prompts, scoring, and no answer in observations."""

import json

import pytest

from stratbench.games.spin.probes import FACTUAL_VARIANTS, SPATIAL_VARIANTS, FactualRetrieval, SpatialTracking
from stratbench.games.spin.planning import probes


@pytest.mark.parametrize("variant", FACTUAL_VARIANTS)
def test_factual_tasks_have_the_settings_shape(variant):
    game = FactualRetrieval(variant)
    task = game.generate(3)
    assert len(task.properties) == game.difficulty and len(task.steps) == game.length
    assert 1 <= task.asked_step <= game.length
    assert task == game.generate(3)  # a seed replays the same task
    state = dict(task.initial)  # the transitions chain: each step deletes the current fact
    for step in task.steps:
        prop = step["property"]
        assert probes._atom(prop, state[prop]) in step["deleted"]
        state[prop] = step["value"]


def test_factual_answer_is_the_state_after_the_asked_step():
    task = probes.factual_task(4, 30, seed=11)
    state = dict(task.initial)
    for step in task.steps[: task.asked_step]:
        state[step["property"]] = step["value"]
    assert task.answer == state
    assert probes.score_factual(task, "$$\n" + json.dumps({"state": state}) + "\n$$") == (True, 1.0)
    wrong = dict(state, ball1="room9")
    correct, share = probes.score_factual(task, json.dumps({"state": wrong}))
    assert not correct and share == pytest.approx(3 / 4)
    assert probes.score_factual(task, "no idea") == (False, 0.0)


def test_factual_prompt_shows_transitions_static_distractors_and_the_question():
    task = probes.factual_task(4, 5, seed=2)
    prompt = probes.factual_prompt(task)
    assert "Initial state s_init:" in prompt and "Goal S_G:" in prompt and "(color ball1" in prompt
    assert f"right after step {task.asked_step}?" in prompt
    assert all(step["action"] in prompt for step in task.steps)
    assert "ball1, ball2, door1, door2" in prompt


def test_spatial_moves_stay_on_the_grid_and_end_at_the_answer():
    for length in (1, 20, 50):
        task = probes.spatial_task(length, seed=length)
        x, y = task.start
        for move in task.moves:
            dx, dy = probes.DIRECTIONS[move]
            x, y = x + dx, y + dy
            assert 0 <= x < task.size and 0 <= y < task.size
        assert (x, y) == task.answer and len(task.moves) == length


def test_spatial_golden_case_and_axis_convention():
    task = probes.SpatialTask(size=6, start=(2, 2), moves=("up", "up", "left", "down", "right", "right"), answer=(3, 3))
    prompt = probes.spatial_prompt(task)
    assert "'up' moves from (x, y) to (x, y+1)" in prompt and "starts on tile (2, 2)" in prompt
    game = SpatialTracking("l5")
    assert game.score(task, '$$\n{"position": [3, 3]}\n$$')[0]
    assert game.score(task, "I end on (3, 3).")[0]
    assert not game.score(task, '$$\n{"position": [3, 1]}\n$$')[0]  # y pointing down would give this
    assert not game.score(task, "")[0]


@pytest.mark.parametrize(
    ("answer", "position"),
    [('$$ {"position": [1, 4]} $$', (1, 4)), ("first (0, 0) then (5,2)", (5, 2)), ('$$ {"position": "x"} $$', None),
     ("nowhere", None), (None, None)],
)
def test_read_position(answer, position):
    assert probes.read_position(answer) == position


@pytest.mark.parametrize("game", [FactualRetrieval("d8-l25"), SpatialTracking("l30")])
def test_observations_do_not_hold_the_answer(game):
    state = game.new_initial_state(5)
    observation = game.observe(state, 0)
    assert observation.asking.prompt and observation.legal_actions == () and list(observation.open_ended) == ["answer"]
    allowed = {"size", "start", "moves", "directions"} if isinstance(game, SpatialTracking) else {
        "properties", "initial", "steps", "asked_step"}
    assert set(observation.data) == allowed  # the inputs, never the answer


def test_unknown_variants_and_settings_are_refused():
    with pytest.raises(ValueError, match="unknown spatial_tracking variant"):
        SpatialTracking("l7")
    with pytest.raises(ValueError):
        probes.factual_task(0, 5, 1)
    with pytest.raises(ValueError):
        probes.spatial_task(0, 1)


def test_variant_lists():
    assert "d16-l50" in FACTUAL_VARIANTS and "l1" in SPATIAL_VARIANTS and "l50" in SPATIAL_VARIANTS
