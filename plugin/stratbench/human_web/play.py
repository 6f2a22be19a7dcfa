"""``stratbench play GAME``: one match against a model (or an agent) on a local page, played as pytest plays it.

The command checks its arguments, writes a one-test suite (the ``stratbench``
marker, ``human:<name>`` as the opponent of the model or agent under test, as
the subject of a one-sided game, or, in Diplomacy, in the seat of the
person's power with the model or agent in every other) into a folder of its own, starts the page
(:class:`~stratbench.human_web.run.HumanWebRun`: it prints the address with
its token and opens the page through a private hand-off file) and runs pytest
in-process on that suite with ``--human-web``. So the match's id, cassette, record (results.jsonl), ratings
and report are those of any pytest run; the suite's folder is named after the
game and seat, so the same command with ``--replay`` finds the match's
cassette and the recorded moves and replays it offline, without a page (a
moves file it cannot play back is refused before the match starts). The
arguments a pytest option also takes are read by that option's parser, and the
folders checked as pytest's start-up would, before any page starts. SIGTERM
stops a match as Ctrl-C does: the page and the temporary folders go.
"""

from __future__ import annotations

import argparse
import getpass
import re
import signal
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stratbench.human_web.moves import MovesFileError, read_moves, recorded_moves_files
from stratbench.llm.cassettes import cassette_path
from stratbench.options import base_url, model_string, positive_float
from stratbench.run.results import RESULTS_FILE
from stratbench.run.startup import directory_problem, results_file_problem

SUITE = '''"""The match `stratbench play` plays (written by the command; safe to delete)."""

import pytest


@pytest.mark.stratbench(game={game!r}, opponents={opponents!r}, baselines=[], matches=1, round_robin=False{variants}{seatings})
def test_play(match):
    match.play()
'''

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class PlayError(Exception):
    """A refused argument of ``stratbench play`` (one line naming it)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` subcommand's arguments."""
    parser.add_argument("game", metavar="GAME", help="A registered game (tictactoe, connect4, chess, hanabi, ...)")
    against = parser.add_mutually_exclusive_group()
    against.add_argument("--model", default=None, metavar="MODEL", help="Play against this litellm model")
    against.add_argument("--opponent", default=None, metavar="AGENT",
                         help="Play against this registered agent (default: random, when no --model)")
    parser.add_argument("--seat", type=int, default=0, metavar="N", help="Your side: 0 moves first (default 0)")
    parser.add_argument("--name", default=None, metavar="NAME",
                        help="Your name in records and ratings, as human:NAME (default: your login name)")
    parser.add_argument("--variant", default=None, metavar="V", help="The game's variant (default: its first)")
    parser.add_argument("--scaffold", default="direct", metavar="NAME", help="The model's scaffold (default direct)")
    parser.add_argument("--api-base", default=None, metavar="URL", help="The model's server (as pytest's option)")
    parser.add_argument("--port", type=int, default=0, metavar="N",
                        help="The page's port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="Print the page's address without opening it")
    parser.add_argument("--human-timeout", default="600", metavar="S",
                        help="Seconds a move may take before you forfeit (default 600)")
    parser.add_argument("--report-dir", type=Path, default=Path("reports/play"), metavar="DIR",
                        help="Where the record and report go (default reports/play)")
    parser.add_argument("--cassette-dir", type=Path, default=Path("cassettes/play"), metavar="DIR",
                        help="Where the model's cassette and your moves go (default cassettes/play)")
    parser.add_argument("--replay", action="store_true",
                        help="Replay the recorded match offline (the model's cassette and your moves), no page")


def plan(args: argparse.Namespace, registry: Any) -> dict[str, Any]:
    """Checks the arguments against the registry (and the folders the run writes into); returns what the suite
    and the pytest run need. The values a pytest option also takes are checked by that option's own parser.

    Raises:
        PlayError: naming the argument at fault.
    """
    if args.game not in registry.games:
        known = ", ".join(sorted(registry.games))
        raise PlayError(f"GAME {args.game!r}: no such game; known: {known}")
    name = _login() if args.name is None else args.name
    if not _NAME.match(name):
        raise PlayError(f"--name {name!r}: expected 1 to 40 letters, digits, '.', '_' or '-'")
    if args.port != 0 and not 1 <= args.port <= 65535:
        raise PlayError(f"--port {args.port}: expected a port from 1 to 65535 (or 0: a free one)")
    checked = {
        "human_timeout": _parsed("--human-timeout", positive_float, args.human_timeout),
        "model": None if args.model is None else _parsed("--model", model_string, args.model),
        "api_base": None if args.api_base is None else _parsed("--api-base", base_url, args.api_base),
    }
    chosen = {**_seats(args, registry, f"human:{name}"), **checked}
    _check_folders(args)
    return chosen


def _parsed(option: str, parse: Callable[[str], Any], text: str) -> Any:
    """``text`` read by the parser of the pytest option that takes it on.

    Raises:
        PlayError: with the parser's reason.
    """
    try:
        return parse(text)
    except (argparse.ArgumentTypeError, ValueError) as error:
        raise PlayError(f"{option}: {error}") from None


def _check_folders(args: argparse.Namespace) -> None:
    """Refuses a report or cassette folder the run cannot use, as pytest's own start-up check would.

    Raises:
        PlayError: naming the option and the folder.
    """
    problem = (directory_problem("--report-dir", args.report_dir, write=True)
               or results_file_problem("--report-dir", args.report_dir / RESULTS_FILE)
               or directory_problem("--cassette-dir", args.cassette_dir, write=not args.replay))
    if problem is not None:
        raise PlayError(problem)


def _seats(args: argparse.Namespace, registry: Any, human: str) -> dict[str, Any]:
    """The game, its variant and who sits where (the person's seat, the model's or agent's).

    Raises:
        PlayError: naming the argument at fault.
    """
    variants = registry.variants(args.game, {})
    variant = args.variant
    if variants is None and variant is not None:
        raise PlayError(f"--variant {variant!r}: {args.game} has no variants")
    if variants is not None:
        names = [v.name for v in variants]
        if variant is None:
            variant = names[0]
        elif variant not in names:
            raise PlayError(f"--variant {variant!r}: {args.game} has no such variant; its variants: "
                            + ", ".join(names[:30]) + (", ..." if len(names) > 30 else ""))
    game = registry.game(args.game) if variant is None else registry.game(args.game, variant)
    if getattr(game, "shape", "moves") != "moves":
        raise PlayError(f"GAME {args.game}: is played by strategies written in rounds ({game.shape} shape), "
                        f"not move by move: a person cannot take a seat")
    sides = len(game.info.sides)
    if sides == 1:
        if args.model or args.opponent:
            raise PlayError(f"GAME {args.game}: you play every seat of this one-sided game; "
                            f"--model and --opponent have no seat to take")
        if args.seat != 0:
            raise PlayError(f"--seat {args.seat}: {args.game} has one side (seat 0)")
        opponents: list[str] = []
        agents = [human]
    elif sides == 2:
        if args.seat not in (0, 1):
            raise PlayError(f"--seat {args.seat}: {args.game} has seats 0 and 1")
        opponent = _opponent(args, registry)
        opponents = [human]
        agents = [opponent] if opponent is not None else []
    else:  # Diplomacy: the person's power at --seat, the model (or the agent) every other power
        if not 0 <= args.seat < sides:
            raise PlayError(f"--seat {args.seat}: {args.game} has seats 0 to {sides - 1}")
        opponent = _opponent(args, registry)
        opponents = []
        agents = [opponent] if opponent is not None else []
        seating = tuple(human if seat == args.seat else "subject" for seat in range(sides))
        return {"game": args.game, "variant": variant, "human": human, "opponents": opponents, "agents": agents,
                "seed": 0, "seatings": {f"seat{args.seat}": seating}}
    if args.model is not None and args.scaffold not in registry.scaffolds:
        known = ", ".join(sorted(registry.scaffolds))
        raise PlayError(f"--scaffold {args.scaffold!r}: no such scaffold; known: {known}")
    # The subject (the model or agent) moves first on an even seed ("alternate" seats): the human's seat picks it.
    seed = 0 if sides == 1 or args.seat == 1 else 1
    return {"game": args.game, "variant": variant, "human": human, "opponents": opponents, "agents": agents,
            "seed": seed}


def _opponent(args: argparse.Namespace, registry: Any) -> str | None:
    """The agent the person plays against (``--opponent``, default random), or None against ``--model``."""
    opponent = args.opponent if args.model is None else None
    if opponent is None and args.model is None:
        opponent = "random"
    if opponent is not None:
        try:
            registry.check_agent(opponent)
        except ValueError as error:
            raise PlayError(f"--opponent: {error}") from None
        if opponent.partition(":")[0] == "human":
            raise PlayError(f"--opponent {opponent}: you are the human seat; choose a model or an agent")
    return opponent


def pytest_arguments(args: argparse.Namespace, chosen: dict[str, Any], suite: Path) -> list[str]:
    """The pytest command line that plays (or replays) the match of ``suite``."""
    arguments = [str(suite), "-c", str(suite.parent / "pytest.ini"), "--rootdir", str(suite.parent),
                 "-p", "no:cacheprovider", "-q", "-W", "ignore::pytest.PytestAssertRewriteWarning",
                 "--stratbench-reference", "off",
                 "--report-dir", str(args.report_dir.resolve()),
                 "--stratbench-cassette-dir", str(args.cassette_dir.resolve()),
                 "--seed", str(chosen["seed"]), "--matches", "1"]
    if chosen["model"] is not None:
        arguments += ["--model", chosen["model"], "--scaffold", args.scaffold]
    if chosen["api_base"] is not None:
        arguments += ["--api-base", chosen["api_base"]]
    for agent in chosen["agents"]:
        arguments += ["--stratbench-agent", agent]
    if args.replay:
        arguments += ["--record-mode", "none"]
    else:
        arguments += ["--record-mode", "all", "--human-web", "--human-timeout", f"{chosen['human_timeout']!r}"]
    return arguments


def write_suite(folder: Path, chosen: dict[str, Any]) -> Path:
    """Writes the one-test suite (and an empty pytest.ini, so no other configuration applies)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    variants = f", variants=[{chosen['variant']!r}]" if chosen["variant"] is not None else ""
    suite = folder / f"test_play_{re.sub(r'[^A-Za-z0-9_]', '_', chosen['game'])}.py"
    seatings = f", seatings={chosen['seatings']!r}" if chosen.get("seatings") else ""
    suite.write_text(SUITE.format(game=chosen["game"], opponents=chosen["opponents"], variants=variants,
                                  seatings=seatings), encoding="utf-8")
    return suite


TERMINATED = 128 + signal.SIGTERM
"""The exit status after SIGTERM (as a shell reports a process it ended), the page and the folders cleaned up."""


def run_play(args: argparse.Namespace) -> int:
    """Plays (or replays) the match; returns pytest's exit status (0: the match was played and recorded), or
    :data:`TERMINATED`.

    SIGTERM stops the match as Ctrl-C does, so the page stops and the temporary folders go.

    Raises:
        PlayError: for a refused argument (nothing started), or a recorded move file the replay cannot play.
    """
    from stratbench.families import standalone_registry  # cli: the families load only when a match is played

    chosen = plan(args, standalone_registry())
    terminated: list[int] = []

    def terminate(signum: int, frame: Any) -> None:
        if terminated:  # already stopping: let the clean-up finish
            return
        terminated.append(signum)
        raise KeyboardInterrupt(f"signal {signum}")

    handles = threading.current_thread() is threading.main_thread()  # only the main thread may set a handler
    previous = signal.signal(signal.SIGTERM, terminate) if handles else None
    try:
        status = _play(args, chosen)
    except KeyboardInterrupt:
        if not terminated:
            raise
        return TERMINATED
    finally:
        if handles:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
    return TERMINATED if terminated else status


def _play(args: argparse.Namespace, chosen: dict[str, Any]) -> int:
    """Writes the suite into a temporary folder and runs pytest on it (with the page, unless replaying)."""
    import pytest  # cli: pytest loads only when a match is played

    from stratbench.human_web.run import HumanWebRun  # cli: the page's code loads only when a match is played
    from stratbench.human_web.server import PortInUse  # cli: the page's code loads only when a match is played

    with tempfile.TemporaryDirectory(prefix="stratbench-play-") as folder:
        suite = write_suite(Path(folder), chosen)
        arguments = pytest_arguments(args, chosen, suite)
        if args.replay:
            check = ReplayCheck(args.cassette_dir.resolve())
            status = int(pytest.main(arguments, plugins=[check]))
            if check.problem is not None:
                raise PlayError(check.problem)
            return status
        try:
            web = HumanWebRun(args.port, chosen["human_timeout"], open_browser=not args.no_browser)
        except PortInUse as error:
            raise PlayError(str(error)) from None
        web.start()
        try:
            web.announce()
            return int(pytest.main(arguments, plugins=[web]))
        finally:
            web.stop()


class ReplayCheck:
    """A pytest plugin for ``--replay``: before any match plays, reads each collected match's recorded moves
    files as the replay will; on the first it cannot play, keeps the reason and deselects every match.

    Args:
        cassette_dir: Where the matches' cassettes (and the moves beside them) are.
    """

    def __init__(self, cassette_dir: Path) -> None:
        self.cassette_dir = cassette_dir
        self.problem: str | None = None

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        for item in items:
            for path in recorded_moves_files(cassette_path(self.cassette_dir, item.nodeid)):
                try:
                    read_moves(path)
                except MovesFileError as error:
                    self.problem = str(error)
                    config.hook.pytest_deselected(items=list(items))
                    items.clear()
                    return


def _login() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return "human"
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40] or "human"
