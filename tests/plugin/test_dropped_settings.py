"""A request setting a model does not take is said aloud at start-up, in the report's notes, and left out of the
agent's label (never a label that claims an effort nobody sent)."""

from __future__ import annotations

import pytest
from stratbench.run.session import RunSettings

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=1)
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.slow
def test_an_effort_a_model_does_not_take_is_warned_and_left_out_of_its_label(pytester, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-dropped")
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "--model",
                                           "openai/gpt-4o", "--model", "openai/o3-mini", "--reasoning-effort", "high",
                                           "--reasoning-effort", "low")
    assert result.ret == 0, result.stdout.str()
    assert ("stratbench: warning: --reasoning-effort high, low: openai/gpt-4o takes no reasoning effort (litellm "
            "lists none for its provider), so it is not sent and its agent's label does not name it"
            ) in result.stdout.lines
    ids = sorted(line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::" in line)
    # gpt-4o once (its two efforts are one agent now), o3-mini with each effort; they also play each other
    assert [i for i in ids if i.endswith("-vs-minimax-s0")] == [
        "openai/gpt-4o+direct-vs-minimax-s0", "openai/o3-mini+direct(effort=high)-vs-minimax-s0",
        "openai/o3-mini+direct(effort=low)-vs-minimax-s0"]
    assert not any("gpt-4o+direct(effort" in i for i in ids)


def test_variants_a_dropped_setting_makes_equal_count_once():
    settings = RunSettings(models=["openai/a"], reasoning_efforts=["low", "high"], answer_formats=["text", "tools"],
                           dropped_params={"openai/a": ("reasoning_effort",)})
    assert settings.model_params("openai/a") == [(), (("answer_format", "tools"),)]
    assert settings.model_params("openai/b") == [
        (("reasoning_effort", "low"),), (("reasoning_effort", "low"), ("answer_format", "tools")),
        (("reasoning_effort", "high"),), (("reasoning_effort", "high"), ("answer_format", "tools"))]


def test_an_agent_asked_to_reason_that_got_no_reasoning_tokens_is_noted():
    from stratbench.run.results import silent_reasoning

    def record(agent, params, reasoning):
        side = {"agent": agent, "model": agent.split("+")[0], "params": params}
        return {"status": "scored", "sides": [side, {"agent": "minimax"}], "scores": [0.0, 1.0],
                "usage": [{"reasoning_tokens": reasoning}, {}]}

    records = [record("openai/x+direct(effort=high)", {"reasoning_effort": "high"}, 0),
               record("openai/x+direct(effort=high)", {"reasoning_effort": "high"}, None),
               record("openai/r+direct(effort=high)", {"reasoning_effort": "high"}, 12),
               record("openai/plain+direct", {}, 0)]
    assert silent_reasoning(records) == [
        "openai/x+direct(effort=high): asked to reason, and no reasoning tokens came back in its 2 match(es) (the "
        "model may not reason, or its provider may not report it)"]
