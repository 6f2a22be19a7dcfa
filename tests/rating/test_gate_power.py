"""The sequential gate's error rates and sample size, by the simulation of ``bench/gate_power.py``.

Fewer gates than the bench (300 per setting and truth), so each rate is checked with a binomial
3-sigma tolerance around its target: a false alarm rate (failing a model that did not regress)
above 0.05 + 0.038 or a power (failing a model that regressed by the margin) below
0.95 - 0.038 fails. A wrong LLR (the normal approximation on 0/1 pairs fails 23% of good models;
swapped hypotheses fail 95%) is far outside that.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "gate_power.py"
GATES = 300
TOLERANCE = 3 * math.sqrt(0.05 * 0.95 / GATES)  # 0.038


def _bench():
    spec = importlib.util.spec_from_file_location("gate_power", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gate_power", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gate_power = _bench()
SETTINGS = {(s.name, s.bounds): s for s in gate_power.settings()}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "bounds", "max_ratio", "ratio_key"), [
    ("win/draw/loss, pairs, logistic", "Elo -20 / 0", 0.6, "n_fixed"),
    ("0/1 success, paired difference", "success -10% / 0", 0.6, "n_fixed"),
    # this one errs far less than asked (about 0.01 / 0.98): against the fixed test with those
    # same error rates it needs under 0.6 of the pairs; against the nominal one about 0.9 of 123
    ("bounded score 0..25, paired difference", "mean -1 / 0 points", 1.0, "n_fixed"),
    ("bounded score 0..25, paired difference", "mean -1 / 0 points", 0.6, "n_fixed_achieved"),
])
def test_sequential_gate_keeps_its_error_rates_with_fewer_pairs(name, bounds, max_ratio, ratio_key):
    row = gate_power.measure(SETTINGS[name, bounds], GATES, seed=11, fixed_check=False)
    assert row["capped"] == 0
    assert row["false_alarm"] <= 0.05 + TOLERANCE
    assert row["power"] >= 0.95 - TOLERANCE
    # mean pairs at the worse of the two truths, with 3 standard errors of slack
    worst = max(("h1", row["pairs_h1"]), ("h0", row["pairs_h0"]), key=lambda item: item[1])
    slack = 3 * row[f"pairs_sd_{worst[0]}"] / math.sqrt(GATES)
    assert worst[1] - slack <= max_ratio * row[ratio_key]


def test_fixed_size_n_has_the_stated_error_rates():
    setting = SETTINGS["0/1 success, paired difference", "success -10% / 0"]
    n = gate_power.fixed_size(setting)
    # (1.645 * 0.3304 + 1.645 * 0.3266) / 0.05, squared
    assert n == pytest.approx(467.1, abs=0.1)
    false_alarm, power = gate_power.fixed_size_rates(setting, math.ceil(n), 2000, np.random.default_rng(2))
    assert abs(false_alarm - 0.05) <= 3 * math.sqrt(0.05 * 0.95 / 2000)
    assert abs(power - 0.95) <= 3 * math.sqrt(0.05 * 0.95 / 2000)


def test_true_distributions_sit_on_the_hypotheses():
    for setting in SETTINGS.values():
        for truth in (setting.truth_h0, setting.truth_h1):
            assert truth.sum() == pytest.approx(1.0) and (truth >= 0).all()
    logistic = SETTINGS["win/draw/loss, pairs, logistic", "Elo -20 / 0"]
    assert logistic.mean_sd(logistic.truth_h0)[0] == pytest.approx(1 / (1 + 10 ** (20 / 400)))
    assert logistic.mean_sd(logistic.truth_h1)[0] == pytest.approx(0.5)
    normalized = SETTINGS["win/draw/loss, pairs, normalized", "nElo -20 / 0"]
    mean, sd = normalized.mean_sd(normalized.truth_h0)
    assert (mean - 0.5) / (math.sqrt(2) * sd) * 800 / math.log(10) == pytest.approx(-20.0, abs=1e-6)
    bounded = SETTINGS["bounded score 0..25, paired difference", "mean -1 / 0 points"]
    assert bounded.mean_sd(bounded.truth_h0)[0] == pytest.approx(0.48)
    success = SETTINGS["0/1 success, paired difference", "success -10% / 0"]
    assert success.mean_sd(success.truth_h0)[0] == pytest.approx(0.45)


def test_simulated_gate_stops_at_the_first_crossing_whatever_the_chunk():
    # One gate draws the same stream of pairs whatever the chunk size, so a gate tested after
    # every pair (chunk=1) and one tested 64 pairs at a time must stop at the same pair.
    setting = SETTINGS["0/1 success, paired difference", "success -10% / 0"]
    for seed in range(3):
        one = gate_power.simulate(setting, setting.truth_h0, 1, 5000, np.random.default_rng(seed), chunk=1)
        many = gate_power.simulate(setting, setting.truth_h0, 1, 5000, np.random.default_rng(seed), chunk=64)
        assert (one.units[0], one.accepted_h0[0]) == (many.units[0], many.accepted_h0[0])
        assert 1 <= one.units[0] < 5000
