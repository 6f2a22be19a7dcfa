"""The regression gate's options and its run at the end of a pytest session.

The option types are shared with ``stratbench gate``.

Defaults, and why: an LLM match costs real money, so the margins are wider
than an engine tester's (Fishtest's non-regression bounds of a few Elo need
tens of thousands of games). H0 is a loss of 50 normalized Elo, H1 no loss.
Normalized Elo measures a change in units of the spread of the unit's
result, so it means the same whatever the old model scored against the
suite's opponent: at an even score it is a drop of about 0.1 in score per
game; for a model that won 2% of its games against the opponent it is a
total collapse to 0%; near 0% or 100% a real drop never reads as "no
change", as a drop in plain score would (there is little score left to
lose). For a game that is not win/draw/loss, H0 is a mean drop of 0.1 of
the game's score range. At alpha = beta = 0.05, one test and units of both
seatings, an unchanged model whose games are coin flips passes after about
135 units on average, one whose units all equal the baseline's after 73
(one-match units: about 200 and 145), a regression of the margin fails after
about as many, and a collapse sooner; before that the gate says
``inconclusive`` (with an estimate of the units left).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from stratbench.report.gate import (
    INCONCLUSIVE,
    PYTEST_EXIT,
    GateSettings,
    NothingCompared,
    check,
    head_to_head,
    holds_both_seatings,
    validate_report,
)

__all__ = ["add_pytest_options", "check_pytest_options", "error_rate", "finite_float", "load_baseline", "openings",
           "plays_pairs",
           "run_gate",
           "score_margin", "settings_from_pytest", "validate"]


def finite_float(text: str) -> float:
    """Parses a finite number (an Elo margin may be negative)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def error_rate(text: str) -> float:
    """Parses an error rate strictly between 0 and 0.5."""
    value = finite_float(text)
    if not 0 < value < 0.5:
        raise argparse.ArgumentTypeError(f"expected an error rate between 0 and 0.5 (exclusive), got {text!r}")
    return value


def score_margin(text: str) -> float:
    """Parses a share of the score range, above 0 and below 1."""
    value = finite_float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a share of the score range between 0 and 1 (exclusive), got {text!r}")
    return value


NORMALIZED_ELO_LIMIT = 245
"""The largest normalized Elo a gate's bound may have: a t-value of 1 per unit of two games (about 347 / sqrt 2),
far past any regression worth gating, and the limit of :func:`stratbench.rating.sprt.sprt_pentanomial`."""


LOGISTIC_ELO_LIMIT = 800
"""The largest logistic Elo ``stratbench sprt`` tests: a score of 0.99 against an equal opponent (beyond it the
expected score rounds to 0 or 1 and the test has nothing left to tell apart)."""


def validate(elo0: float, elo1: float, names: tuple[str, str] = ("--gate-elo0", "--gate-elo1"),
             logistic: bool = False) -> str | None:
    """Returns why the two Elo hypotheses cannot be tested, or None (checked before any match).

    The gate's bounds lie within +-:data:`NORMALIZED_ELO_LIMIT` whatever the Elo model (against a baseline it is
    always normalized); ``stratbench sprt`` in logistic Elo (``logistic``) within +-:data:`LOGISTIC_ELO_LIMIT`.
    """
    if not elo0 < elo1:
        return f"{names[0]} {elo0:g} must be below {names[1]} {elo1:g} (H0 the regression, H1 none)"
    limit = LOGISTIC_ELO_LIMIT if logistic else NORMALIZED_ELO_LIMIT
    for name, value in zip(names, (elo0, elo1)):
        if abs(value) > limit:
            if limit == LOGISTIC_ELO_LIMIT:
                return (f"{name} {value:g}: a bound lies within +-{limit} logistic Elo (a score of 0.99 against an "
                        "equal opponent; beyond it there is nothing left to tell apart)")
            return (f"{name} {value:g}: a bound lies within +-{limit} Elo (normalized Elo beyond it is a change of "
                    "more than one spread per unit; the tests cannot be drawn)")
    return None


def add_pytest_options(group: Any) -> None:
    """Adds the gate's pytest options (each also spelled ``--stratbench-gate-...``)."""
    group.addoption("--gate-elo0", "--stratbench-gate-elo0", type=finite_float, default=-50.0, metavar="E",
                    dest="stratbench_gate_elo0", help="Gate H0: the regression to catch, in Elo (default -50)")
    group.addoption("--gate-elo1", "--stratbench-gate-elo1", type=finite_float, default=0.0, metavar="E",
                    dest="stratbench_gate_elo1", help="Gate H1: no regression, in Elo (default 0)")
    group.addoption("--gate-alpha", "--stratbench-gate-alpha", type=error_rate, default=0.05, metavar="A",
                    dest="stratbench_gate_alpha", help="Chance a regression of elo0 passes the gate (default 0.05)")
    group.addoption("--gate-beta", "--stratbench-gate-beta", type=error_rate, default=0.05, metavar="B",
                    dest="stratbench_gate_beta", help="Chance an unchanged agent fails the gate (default 0.05)")
    group.addoption("--gate-elo-model", "--stratbench-gate-elo-model", choices=("logistic", "normalized"),
                    default="normalized", dest="stratbench_gate_elo_model",
                    help="Elo of a head-to-head gate's win/draw/loss pairs: normalized (default) or logistic; "
                         "against a baseline the gate always tests normalized Elo")
    group.addoption("--gate-score-margin", "--stratbench-gate-score-margin", type=score_margin, default=0.1,
                    metavar="S", dest="stratbench_gate_score_margin",
                    help="Gate H0 for games other than win/draw/loss: a mean drop of this share of the score "
                         "range (default 0.1)")
    group.addoption("--gate-until-decided", "--stratbench-gate-until-decided", action="store_true", default=False,
                    dest="stratbench_gate_until_decided",
                    help="Play the collected matches one pair at a time for the games the gate has not decided, "
                         "until each is decided or --budget N matches (or --max-cost) are spent; one process")
    group.addoption("--gate-plan", "--stratbench-gate-plan", action="store_true", default=False,
                    dest="stratbench_gate_plan",
                    help="Print the gate's plan (the units that can pair, the units a decision takes on average, "
                         "the budget) and exit before playing anything; one process")
    group.addoption("--pairs", "--stratbench-pairs", action="store_true", default=False, dest="stratbench_pairs",
                    help="Play each seed of a two-seat pairing in both seatings, a pair with the sides swapped for "
                         "the gate (twice the matches; the seating a suite gives a seed keeps its id)")
    group.addoption("--gate-inconclusive", "--stratbench-gate-inconclusive", choices=("inconclusive", "pass", "fail"),
                    default="inconclusive", dest="stratbench_gate_inconclusive",
                    help="Exit status of an undecided gate: inconclusive (6, default), pass (0) or fail (1)")


UNGATED = (
    ("--stratbench-gate-tolerance", "stratbench_gate_tolerance", 0.0),
    ("--gate-elo0", "stratbench_gate_elo0", -50.0),
    ("--gate-elo1", "stratbench_gate_elo1", 0.0),
    ("--gate-alpha", "stratbench_gate_alpha", 0.05),
    ("--gate-beta", "stratbench_gate_beta", 0.05),
    ("--gate-elo-model", "stratbench_gate_elo_model", "normalized"),
    ("--gate-score-margin", "stratbench_gate_score_margin", 0.1),
    ("--gate-inconclusive", "stratbench_gate_inconclusive", "inconclusive"),
)
"""(flag, dest, default) of the options that mean nothing without a gate."""


def settings_from_pytest(config: Any) -> Any:
    """Returns the :class:`~stratbench.report.gate.GateSettings` of a pytest run's options."""
    return GateSettings(
        elo0=config.getoption("stratbench_gate_elo0"), elo1=config.getoption("stratbench_gate_elo1"),
        alpha=config.getoption("stratbench_gate_alpha"), beta=config.getoption("stratbench_gate_beta"),
        elo_model=config.getoption("stratbench_gate_elo_model"),
        score_margin=config.getoption("stratbench_gate_score_margin"),
        tolerance=config.getoption("stratbench_gate_tolerance"),
        agent_map=dict(item.split("=", 1) for item in config.getoption("stratbench_gate_map")),
    )


def check_pytest_options(config: Any, baseline: Any) -> str | None:
    """Returns why the gate options cannot run (one line), or None; called before any match."""
    if baseline is None and not config.getoption("stratbench_gate_map"):
        for flag, dest, default in UNGATED:
            if config.getoption(dest) != default:
                return f"{flag} needs --baseline PATH (a results.json to compare with) or --stratbench-gate-map NEW=OLD"
    from stratbench.run.gate_schedule import (  # cli: gate_schedule loads pytest; run.gating stays pytest-free
        until_decided_problem,
    )

    return (until_decided_problem(config, baseline)
            or validate(config.getoption("stratbench_gate_elo0"), config.getoption("stratbench_gate_elo1")))


def plays_pairs(config: Any) -> bool:
    """Whether a two-seat match is played in both seatings of its seed (``--pairs``), one unit of the gate per seed.

    So it is under ``--pairs``, in a head-to-head gate (``--stratbench-gate-map`` without a baseline), and against
    a baseline that holds seeds in both seatings; a baseline recorded without them is compared seating by seating,
    and this run plays the seatings its ``--matches`` gives, as the baseline did.
    """
    if config.getoption("stratbench_pairs"):
        return True
    if config.getoption("baseline", None) is None:
        return bool(config.getoption("stratbench_gate_map"))
    return holds_both_seatings(_baseline_of(config))


def _baseline_of(config: Any) -> dict[str, Any]:
    """The ``--baseline`` results, read once per run (the controller's copy when it has loaded it); empty when
    they cannot be read (the controller says why, before any match)."""
    if getattr(config, "_stratbench_baseline", None) is None:
        try:
            config._stratbench_baseline = load_baseline(config.getoption("baseline", None)) or {}
        except ValueError:
            config._stratbench_baseline = {}
    return config._stratbench_baseline


def openings(config: Any) -> tuple[str, str | None]:
    """Where the games that have an opening book start (``--openings``), and why when the option was not given.

    Given: as given. Not given: as the baseline's two-seat matches started (a baseline's row names its book position
    as ``opening``), else from the book when the run plays pairs for the gate (:func:`plays_pairs`: ``--pairs``, a
    head-to-head map), else from the game's own start.
    """
    given = config.getoption("stratbench_openings", None)
    if given:
        return given, None
    if config.getoption("baseline", None) is not None:
        rows = _baseline_of(config).get("matches", [])
        book = any(isinstance(row, dict) and row.get("opening") for row in rows)
        return ("book" if book else "empty"), "as the baseline's matches started"
    if plays_pairs(config):
        return "book", "the gate's default when it plays pairs"
    return "empty", None


def load_baseline(path: str | None) -> dict[str, Any] | None:
    """Loads a --baseline results.json (or report directory) and checks its shape.

    Raises:
        ValueError: One line naming the file and the problem.
    """
    if path is None:
        return None
    file = Path(path)
    if file.is_dir():
        file = file / "results.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"--baseline {path}: cannot read a results.json ({error})") from None
    validate_report(data, f"--baseline {path}")
    return data


def run_gate(config: Any, report: dict[str, Any], baseline: dict[str, Any] | None) -> tuple[Any, str | None, int]:
    """Runs the gate on a finished session's report.

    Returns:
        ``(GateResult or None, a one-line error or None, the pytest exit status it asks for)``.
    """
    settings = settings_from_pytest(config)
    from stratbench.run.gate_schedule import (  # cli: gate_schedule loads pytest; run.gating stays pytest-free
        GateSchedule,
    )

    schedule = next((p for p in config.pluginmanager.get_plugins() if isinstance(p, GateSchedule)), None)
    planned = schedule.planned_tests if schedule is not None else None  # the split the run was decided with
    try:
        result = (check(report, baseline, settings, planned) if baseline is not None
                  else head_to_head(report, settings, planned))
    except NothingCompared as error:
        return None, f"stratbench gate: nothing compared: {error}", PYTEST_EXIT["nothing compared"]
    decision = result.decision
    mode = config.getoption("stratbench_gate_inconclusive")
    if decision == INCONCLUSIVE and mode != "inconclusive":
        decision = mode
    return result, None, PYTEST_EXIT[decision]
