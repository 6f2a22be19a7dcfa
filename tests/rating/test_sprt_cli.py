"""``stratbench sprt``, run as a user runs it: in a subprocess, on the anchors' published examples."""

from __future__ import annotations

import subprocess

import pytest
from stratbench.cli import main
from stratbench.testing.warm_pytest import run_module


def stratbench(*args: object) -> subprocess.CompletedProcess[str]:
    return run_module("stratbench.cli", [*map(str, args)], timeout=120)


@pytest.mark.parametrize(("args", "lines"), [
    # jw1912/SPRT:README.md, GSPRT sample: --wins 4307 --losses 4063 --draws 8620 --elo0 0 --elo1 3
    # -> "LLR: 2.99 (-2.94, 2.94)", "H1 Accepted"
    (["--wdl", "4307,8620,4063", "--elo0", "0", "--elo1", "3"],
     ["LLR 2.99 (-2.94, 2.94)", "H1 accepted, Elo +4.99 (95% +1.32, +8.66) over 16990 games"]),
    # Disservin/fastchess:app/tests/sprt_test.cpp "logistic trinomial 2": Stats(57433 W, 57030 L, 106593 D),
    # SPRT(0.05, 0.05, 0, 2, "logistic") -> -2.59
    (["--wdl", "57433,106593,57030", "--elo0", "0", "--elo1", "2"],
     ["LLR -2.59 (-2.94, 2.94)"]),
    # same file, "normalized trinomial 2": Stats(10871, 10650, 20431), SPRT(-1.75, 0.25, "normalized") -> 2.30
    (["--wdl", "10871,20431,10650", "--elo0", "-1.75", "--elo1", "0.25", "--elo-model", "normalized"],
     ["LLR 2.30 (-2.94, 2.94)"]),
    # same file, "logistic pentanomial 1": Stats(223, 9863, 20279, 1000, 10037, 246), SPRT(0.5, 2.5) -> -3.07
    (["--pentanomial", "223,9863,21279,10037,246", "--elo0", "0.5", "--elo1", "2.5"],
     ["LLR -3.07 (-2.94, 2.94)", "H0 accepted, Elo +0.92 (95% -0.29, +2.12) over 41648 pairs"]),
    # same file, "normalized pentanomial 1": Stats(365, 16618, 36029, 200, 16974, 390), SPRT(0, 2) -> 2.25
    (["--pentanomial", "365,16618,36229,16974,390", "--elo0", "0", "--elo1", "2", "--elo-model", "normalized"],
     ["LLR 2.25 (-2.94, 2.94)", "continue, nElo +1.96 (95% +0.15, +3.77) over 70576 pairs; about "]),
    # same file, "normalized pentanomial 2": Stats(127, 4883, 10311, 401, 5150, 104), SPRT(-1.75, 0.25) -> 3.01
    (["--pentanomial", "127,4883,10712,5150,104", "--elo0", "-1.75", "--elo1", "0.25", "--elo-model", "normalized"],
     ["LLR 3.01 (-2.94, 2.94)", "H1 accepted, nElo +3.58 (95% +0.26, +6.91) over 20976 pairs"]),
    # wider error rates narrow the bounds
    (["--wdl", "4307,8620,4063", "--elo0", "0", "--elo1", "3", "--alpha", "0.1", "--beta", "0.2"],
     ["LLR 2.99 (-1.50, 2.08)", "H1 accepted, "]),
    (["--wdl", "0,0,0", "--elo0", "-10", "--elo1", "0"], ["LLR 0.00 (-2.94, 2.94)", "continue, no games yet"]),
])
def test_sprt_prints_the_llr_bounds_and_decision(args, lines):
    result = stratbench("sprt", *args)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert len(out) == 2 and result.stderr == ""
    assert out[0] == lines[0]
    if len(lines) > 1:
        assert out[1].startswith(lines[1])


def test_sprt_continue_estimates_the_units_left():
    result = stratbench("sprt", "--pentanomial", "10,20,30,20,10", "--elo0", "-10", "--elo1", "0")
    assert result.stdout.splitlines() == [
        "LLR 0.11 (-2.94, 2.94)",
        "continue, Elo +0.00 (95% -41.64, +41.64) over 90 pairs; about 2072 more pairs to a decision",
    ]


@pytest.mark.parametrize(("args", "message"), [
    (["--wdl", "1,2", "--elo0", "0", "--elo1", "3"], "--wdl '1,2': expected 3 counts W,D,L, got 2"),
    (["--pentanomial", "1,2,3,4", "--elo0", "0", "--elo1", "3"],
     "--pentanomial '1,2,3,4': expected 5 counts LL,LD,D,WD,WW, got 4"),
    (["--wdl=-1,2,3", "--elo0", "0", "--elo1", "3"], "--wdl '-1,2,3': counts must be whole numbers >= 0"),
    (["--wdl", "a,2,3", "--elo0", "0", "--elo1", "3"], "--wdl 'a,2,3': counts must be whole numbers >= 0"),
    (["--wdl", "1.5,2,3", "--elo0", "0", "--elo1", "3"], "--wdl '1.5,2,3': counts must be whole numbers >= 0"),
    (["--elo0", "0", "--elo1", "3"], "give one of --wdl W,D,L and --pentanomial LL,LD,D,WD,WW"),
    (["--wdl", "1,2,3", "--pentanomial", "1,2,3,4,5", "--elo0", "0", "--elo1", "3"],
     "give one of --wdl W,D,L and --pentanomial LL,LD,D,WD,WW"),
    (["--wdl", "1,2,3", "--elo1", "3"], "--elo0: required"),
    (["--wdl", "1,2,3", "--elo0", "x", "--elo1", "3"], "--elo0 'x': expected a number"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "nan"], "--elo1 'nan': expected a finite number"),
    (["--wdl", "1,2,3", "--elo0", "3", "--elo1", "3"], "--elo0 3 --elo1 3: expected elo0 < elo1"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "3", "--alpha", "0.5"],
     "--alpha '0.5': expected a number in (0, 0.5)"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "3", "--alpha", "0"], "--alpha '0': expected a number in (0, 0.5)"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "3", "--beta", "x"], "--beta 'x': expected a number in (0, 0.5)"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "3", "--elo-model", "bayes"],
     "--elo-model 'bayes': expected one of logistic, normalized"),
    (["--wdl", "1,2,3", "--elo0", "0", "--elo1", "3000", "--elo-model", "normalized"],
     "--elo1 3000: a bound lies within +-245 Elo (normalized Elo beyond it is a change of more than one spread "
     "per unit; the tests cannot be drawn)"),
])
def test_sprt_bad_input_is_one_line_exit_2(args, message, capsys):
    assert main(["sprt", *args]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"stratbench sprt: {message}\n")


@pytest.mark.parametrize("args", [["--wdl", "1,2", "--elo0", "0", "--elo1", "3"],
                                  ["--pentanomial", "1,2,3,4,5", "--elo0", "1", "--elo1", "0"]])
def test_sprt_bad_input_from_a_shell_has_no_traceback(args):
    result = stratbench("sprt", *args)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("stratbench sprt: --")
