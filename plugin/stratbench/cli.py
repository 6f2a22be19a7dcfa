"""The ``stratbench`` command: rate, report, merge and gate stored results.

    stratbench rate FILE... [--compat gamebench]   ratings table from results.jsonl or GameBench matches.json
    stratbench report DIR... [--out DIR]           report.html, report.md, results.json from stored results
    stratbench sprt (--wdl W,D,L | --pentanomial LL,LD,D,WD,WW) --elo0 E0 --elo1 E1 [--alpha A] [--beta B]
                    [--elo-model logistic|normalized]
                                                   LLR, bounds and decision of a sequential test
                                                   (exit 0 whatever the decision)
    stratbench merge OUT DIR... [--prefer first|last|PATH] [--resamples B] [--no-report]
                                                   combine shards, deduplicated by match id, into
                                                   results.jsonl and the reports of one run
    stratbench gate CURRENT [BASELINE]             pass, fail or inconclusive: a sequential test on
                                                   paired matches (without BASELINE: head to head,
                                                   --map NEW=OLD within CURRENT)
    stratbench leaderboard RUN... [--out DIR] [--map NEW=OLD] [--baseline AGENT]
                                                   a static site over many runs (report directories,
                                                   result files, or folders of them)
    stratbench audit RUN... [--notation-threshold F] [--unreadable-threshold F]
                                                   the harness's own health: refusal rates per game
                                                   and agent, rejected answers by reason, and flags
                                                   where the harness is the likely cause (exit 1)
    stratbench play GAME [--model MODEL | --opponent AGENT] [--seat N] [--name NAME] [--port N] [--no-browser]
                                                   play against a model on a local page (127.0.0.1,
                                                   a token in its address); recorded and rated as
                                                   any match; --replay plays it back offline

Exit status: 0 fine (gate: pass), 1 regression (gate: fail; audit: a flag raised), 2 bad input (a
one-line message) or unresolved merge conflicts (one line each), 4 gate:
nothing compared (one line), 6 gate inconclusive (0 or 1 with
--gate-inconclusive pass|fail), 141 the reader closed standard output early
(``stratbench rate ... | head``); pytest --baseline uses 1, 4 and 6 alike.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import select
import shutil
import sys
import warnings
from pathlib import Path
from typing import Any

from stratbench.run.gating import error_rate, finite_float, score_margin, validate
from stratbench.human_web.play import PlayError, add_arguments as add_play_arguments, run_play
from stratbench.options import non_negative_float, non_negative_int, positive_int
from stratbench.run.results import RESULTS_FILE
from stratbench.report.scales import builtin_scales
from stratbench.report.health import (
    HEALTH_COLUMNS,
    LISTED_ACTIONS_NOTE,
    NOTATION_THRESHOLD,
    UNREADABLE_THRESHOLD,
    harness_health,
    health_rows,
    reason_lines,
    rejection_events,
)
from stratbench.report.render import write_reports
from stratbench.report.gate import (
    CLI_EXIT,
    INCONCLUSIVE,
    BaselineError,
    GateSettings,
    NothingCompared,
    check,
    head_to_head,
    validate_report,
)


class InputError(Exception):
    """A problem with the user's input; printed as one line."""


def _records_from(path: Path) -> list[dict[str, Any]]:
    """Reads match records from a report directory or a results.jsonl file.

    A truncated last line (a run killed mid-write) is skipped with a warning on
    stderr; an empty file, a file without match records or a malformed record
    is an :class:`InputError` naming the file (and line).
    """
    file = path / RESULTS_FILE if path.is_dir() else path
    if not file.is_file():
        raise InputError(f"{path}: no {RESULTS_FILE} found")
    from stratbench.report.analysis import (  # cli: report.analysis loads the rating stack; a typo is answered first
        read_match_records,
    )

    try:
        matches, truncated = read_match_records(file)
    except ValueError as error:
        raise InputError(str(error)) from None
    if truncated:
        print(f"warning: {file}: skipped a truncated last line", file=sys.stderr)
    return matches


@functools.cache
def _reporters() -> Any:
    """The installed families' registry: their report sections, board renderers and games' scales."""
    from stratbench.families import FamilyLoadError, standalone_registry  # cli: loads pytest and every family

    try:
        return standalone_registry()
    except FamilyLoadError as error:
        raise InputError(str(error)) from None


def _registry_sections() -> dict[str, Any]:
    return _reporters().report_sections


def _analyse(records: list[dict[str, Any]], resamples: int) -> dict[str, Any]:
    from stratbench.report.analysis import analyse, manifest_for  # cli: report.analysis loads the rating stack

    return analyse(records, sections=_registry_sections(), resamples=resamples,
                   manifest=manifest_for(records, command=["stratbench", *sys.argv[1:]]))


def cmd_rate(args: argparse.Namespace) -> int:
    """Prints the ratings table (and average scores) for result files."""
    paths = [path / RESULTS_FILE if path.is_dir() else path for path in args.files]
    for path in paths:  # before the (slow) rating import, so a typo is answered at once
        if not path.is_file():
            raise InputError(f"{path}: no such file")
    from stratbench.rating import (  # cli: the rating stack costs seconds; a typo is answered first
        ResultsFormatError,
        average_scores,
        bootstrap,
        load_matches,
        render_ratings_table,
        render_scores_table,
    )

    matches = []
    for path in paths:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                matches.extend(load_matches(path))
            for warning in caught:
                print(f"warning: {warning.message}", file=sys.stderr)
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError, ResultsFormatError) as error:
            raise InputError(str(error)) from None
    if not matches:
        raise InputError("no matches in " + ", ".join(map(str, args.files)))
    mode = "gamebench" if args.compat == "gamebench" else "default"
    try:
        summary = bootstrap(matches, mode=mode, n_resamples=args.resamples)
    except ValueError as error:
        raise InputError(f"cannot rate these results: {error}") from None
    print(render_ratings_table(summary, intervals=args.intervals))
    print()
    scores = average_scores(matches)
    if mode != "gamebench":  # GameBench's Table 2 averages its own games, all win shares
        scores, rule = _comparable_overall(matches, scores)
        print(rule)
    print(render_scores_table(scores))
    return 0


def _comparable_overall(matches: list[Any], scores: Any) -> tuple[Any, str]:
    """Returns the average scores with an overall over win-share games only, and the rule as one line.

    Quantities on different scales (supply centres, Hanabi points, plan validity)
    are never averaged with win shares: those games keep their own columns.
    """
    from stratbench.rating import average_scores  # cli: the rating stack costs seconds
    from stratbench.rating.bradley_terry import AverageScores  # cli: the rating stack costs seconds

    scales = builtin_scales({m.game: None for m in matches})
    comparable = sorted({m.game for m in matches if len(m.agents) > 1 and scales.get(m.game) == ((0.0, 1.0), 1.0)})
    overall = average_scores([m for m in matches if m.game in comparable]).overall
    others = sorted(set(scores.per_game) - set(comparable))
    rule = ("Overall: the mean over two-sided games scored in win shares (0..1, summing to 1): "
            + (", ".join(comparable) or "none"))
    if others:
        rule += "; not averaged (other scales): " + ", ".join(others)
    return AverageScores(overall=overall, per_game=scores.per_game), rule


def cmd_report(args: argparse.Namespace) -> int:
    """Renders reports from one or more result directories."""
    records: list[dict[str, Any]] = []
    for directory in args.dirs:
        records.extend(_records_from(directory))
    out = args.out or (args.dirs[0] if args.dirs[0].is_dir() else args.dirs[0].parent)
    data = _analyse(records, args.resamples)
    sources = [d if d.is_dir() else d.parent for d in args.dirs]
    written = write_reports(data, out, transcripts_from=sources,
                            renderers=_reporters().board_renderers)
    for note in data["notes"]:
        print(f"note: {note}")
    for path in written.values():
        print(f"wrote {path}")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    """Prints the harness's health for runs; exit 1 when a flag blames the harness."""
    for option, value in (("--notation-threshold", args.notation_threshold),
                          ("--unreadable-threshold", args.unreadable_threshold)):
        if not 0 <= value <= 1:
            raise InputError(f"{option} {value}: expected a share from 0 to 1")
    records: list[dict[str, Any]] = []
    for run in args.runs:
        records.extend(_records_from(run))
    if not any(record.get("status", "scored") == "scored" for record in records):
        raise InputError("no scored matches in " + ", ".join(map(str, args.runs)))
    events, problems = rejection_events(records, [run if run.is_dir() else run.parent for run in args.runs])
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    health = harness_health(records, events, notation_threshold=args.notation_threshold,
                            unreadable_threshold=args.unreadable_threshold)
    health = _with_prompt_checks(health, records, args.prompt_samples)
    rows = [HEALTH_COLUMNS, *([str(cell) for cell in row] for row in health_rows(health))]
    widths = [max(len(row[k]) for row in rows) for k in range(len(HEALTH_COLUMNS))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    reasons = reason_lines(health)
    if reasons:
        print("\nMost common rejected answers:")
        for line in reasons:
            print(f"  {line}")
    for note in health["notes"]:
        print(f"note: {note}")
    if not health["flags"]:
        print("\nno flags")
        return 0
    print()
    for flag in health["flags"]:
        print(f"flag {flag['kind']}: {flag['message']}")
    return 1


def _with_prompt_checks(health: dict[str, Any], records: list[dict[str, Any]], samples: int) -> dict[str, Any]:
    """Adds the prompt conformance check of every game and protocol the run played: a ``prompt`` flag where a
    sampled prompt lists other actions than the engine's, or an answer written as it instructs is misread."""
    if not samples:
        return health
    from stratbench.families import standalone_registry  # cli: the families load only for this subcommand
    from stratbench.testing.prompt_conformance import cases_played, check_game  # cli: loads the games' engines

    registry = standalone_registry(("games", "protocols"))
    cases = cases_played(registry, records)
    flags = list(health["flags"])
    for case in cases:
        problems = check_game(registry, case.name, case.variant, case.protocol, samples=samples)
        if problems:
            flags.append({"kind": "prompt", "game": case.name, "message": (
                f"{case.label}: {len(problems)} disagreement(s) between the prompt and its reader in {samples} "
                f"sampled decision(s), e.g. {problems[0]}")})
    notes = [note for note in health["notes"] if note != LISTED_ACTIONS_NOTE]
    notes.append(f"prompts checked: {len(cases)} game/protocol(s) played, {samples} sampled decision(s) each: the "
                 "actions each lists against the engine's, and an answer written as it instructs read back")
    return {**health, "flags": flags, "notes": notes}


OUTCOME_KEYS = ("game", "seed", "variant", "sides", "subject", "scores", "result", "terminal", "turns", "illegal")
"""The fields that make two records of one match id the same match; run ids, timings, usage may differ."""


def _differences(kept: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """Returns the outcome fields in which two records of one match differ."""
    return [key for key in OUTCOME_KEYS if kept.get(key) != other.get(key)]


def _results_file(path: Path) -> Path:
    return path / RESULTS_FILE if path.is_dir() else path


def _check_merge_output(out: Path) -> None:
    """Refuses an output path that cannot take a new results.jsonl, before anything is read."""
    if (out / RESULTS_FILE).exists():
        raise InputError(f"{out / RESULTS_FILE} exists; merge into a new directory")
    _check_output_dir(out, "OUT")


def _check_output_dir(out: Path, name: str) -> None:
    """Refuses an output directory (the argument ``name``) that is a file or whose nearest existing
    folder cannot be written, before anything is read."""
    if out.exists() and not out.is_dir():
        raise InputError(f"{name} {out}: is a file, not a directory")
    existing = out
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(f"{name} {out}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"{name} {out}: {existing} is not writable")


def _preferred(prefer: str | None, shards: list[Path]) -> str | Path | None:
    """Resolves ``--prefer``: ``first``, ``last``, one of the shards, or None."""
    if prefer is None or prefer in ("first", "last"):
        return prefer
    chosen = Path(prefer)
    for shard in shards:
        if shard == chosen or _results_file(shard).resolve() == _results_file(chosen).resolve():
            return shard
    raise InputError(f"--prefer {prefer}: not one of the merged inputs ({', '.join(map(str, shards))}); "
                     "use first, last or one of them")


def cmd_merge(args: argparse.Namespace) -> int:
    """Combines shards, deduplicated by match id; conflicting duplicates need ``--prefer``."""
    _check_merge_output(args.out)
    prefer = _preferred(args.prefer, args.dirs)
    merged: dict[str, dict[str, Any]] = {}
    sources: dict[str, Path] = {}
    conflicts: list[str] = []
    resolved: list[str] = []
    for shard in args.dirs:
        for record in _records_from(shard):
            key = record["match_id"]
            if key not in merged:
                merged[key], sources[key] = record, shard
                continue
            differing = _differences(merged[key], record)
            if not differing:
                continue  # the same match stored twice
            kept_file, new_file = _results_file(sources[key]), _results_file(shard)
            described = f"{key}: {kept_file} and {new_file} differ in {', '.join(differing)}"
            if prefer == "last" or prefer == shard:
                merged[key], sources[key] = record, shard
                resolved.append(f"{described}; kept {new_file}")
            elif prefer == "first" or prefer == sources[key]:
                resolved.append(f"{described}; kept {kept_file}")
            else:
                conflicts.append(described)
    if conflicts:
        for conflict in conflicts:
            print(f"stratbench merge: conflict: {conflict}", file=sys.stderr)
        print(f"stratbench merge: {len(conflicts)} conflict(s), nothing written; choose a side with "
              "--prefer first, --prefer last or --prefer PATH", file=sys.stderr)
        return 2
    target = args.out / RESULTS_FILE
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        with target.open("x", encoding="utf-8") as handle:
            for record in merged.values():
                handle.write(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
        for key, record in merged.items():
            name = record.get("transcript")
            source_dir = sources[key] if sources[key].is_dir() else sources[key].parent
            if name and (source_dir / name).is_file():
                (args.out / name).parent.mkdir(parents=True, exist_ok=True)  # transcripts/<run id>/
                shutil.copy2(source_dir / name, args.out / name)
    except FileExistsError:
        raise InputError(f"{target} exists; merge into a new directory") from None
    except OSError as error:
        raise InputError(f"OUT {args.out}: cannot write ({error.strerror or error})") from None
    for line in resolved:
        print(f"resolved: {line}", file=sys.stderr)
    print(f"merged {len(merged)} matches from {len(args.dirs)} shard(s) into {target}; "
          f"{len(resolved)} conflict(s) resolved by --prefer {args.prefer}" if resolved else
          f"merged {len(merged)} matches from {len(args.dirs)} shard(s) into {target}")
    if args.report:
        _write_merged_reports(list(merged.values()), args.out, args.resamples)
    return 0


def _write_merged_reports(records: list[dict[str, Any]], out: Path, resamples: int) -> None:
    """Writes results.json, report.md and report.html of the merged records, as one run of them writes them."""
    data = _analyse(records, resamples)
    try:
        written = write_reports(data, out, transcripts_from=[out], renderers=_reporters().board_renderers)
    except OSError as error:  # results.jsonl is written already; say why the reports are missing
        raise InputError(f"OUT {out}: merged {RESULTS_FILE} written, but not the reports ({error})") from None
    for note in data["notes"]:
        print(f"note: {note}")
    for path in written.values():
        print(f"wrote {path}")


def _report_data(path: Path, resamples: int) -> dict[str, Any]:
    """Loads results.json, or analyses a results directory or results.jsonl."""
    candidate = path / "results.json" if path.is_dir() else path
    if candidate.suffix == ".json" and candidate.is_file():
        try:
            data = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise InputError(f"{candidate}: not a stratbench results.json ({error})") from None
        if not isinstance(data, dict) or "matches" not in data:
            raise InputError(f"{candidate}: not a stratbench results.json (no 'matches')")
        return data
    return _analyse(_records_from(path), resamples)


def cmd_gate(args: argparse.Namespace) -> int:
    """Gates a run against a baseline (or head to head); exit 0 pass, 1 fail, 6 inconclusive, 4 nothing compared."""
    problem = validate(args.elo0, args.elo1, ("--elo0", "--elo1"))
    if problem:
        raise InputError(problem)
    settings = GateSettings(elo0=args.elo0, elo1=args.elo1, alpha=args.alpha, beta=args.beta,
                            elo_model=args.elo_model, score_margin=args.score_margin, tolerance=args.tolerance,
                            agent_map=_agent_map(args.map))
    current = _report_data(args.current, args.resamples)
    baseline = None if args.baseline is None else _report_data(args.baseline, args.resamples)
    try:
        validate_report(current, f"CURRENT {args.current}")
        if baseline is not None:
            validate_report(baseline, f"BASELINE {args.baseline}")
    except BaselineError as error:
        raise InputError(str(error)) from None
    try:
        result = check(current, baseline, settings) if baseline is not None else head_to_head(current, settings)
    except NothingCompared as error:
        print(f"stratbench gate: nothing compared: {error}", file=sys.stderr)
        return CLI_EXIT["nothing compared"]
    print(result.explain())
    decision = result.decision
    if decision == INCONCLUSIVE and args.inconclusive != "inconclusive":
        decision = args.inconclusive
    return CLI_EXIT[decision]


def _agent_map(items: list[str]) -> dict[str, str]:
    mapping = {}
    for item in items:
        new, sep, old = item.partition("=")
        if not sep or not new or not old:
            raise InputError(f"--map {item!r}: expected NEW=OLD")
        mapping[new] = old
    return mapping


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """Writes the leaderboard site (index.html, history.html, models/*.html) over the runs given."""
    from stratbench.leaderboard.board import UnknownAgent, build_board  # cli: loads the rating stack
    from stratbench.leaderboard.pages import write_site  # cli: loads jinja2
    from stratbench.leaderboard.runs import RunInputError, collect_runs  # cli: only this subcommand reads runs

    _check_output_dir(args.out, "--out")  # before any run is read
    agent_map = _agent_map(args.map)
    notes: list[str] = []
    try:
        runs = collect_runs(args.runs, notes)
        board = build_board(runs, sections=_registry_sections(), resamples=args.resamples, agent_map=agent_map,
                            baseline=args.baseline)
    except (RunInputError, UnknownAgent) as error:
        raise InputError(str(error)) from None
    try:
        written = write_site(board, args.out)
    except OSError as error:
        raise InputError(f"--out {args.out}: cannot write ({error.strerror or error})") from None
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    for pool in board.pools:
        for earlier, why in pool.apart:
            print(f"warning: not pooled: {pool.name} ({', '.join(r.label for r in pool.runs)}) differs from "
                  f"{earlier} in {'; '.join(why)}", file=sys.stderr)
    print(f"wrote {args.out / 'index.html'}: {len(runs)} run(s) in {len(board.pools)} pool(s), "
          f"{len(written) - 2} model page(s)")
    return 0


def cmd_sprt(args: argparse.Namespace) -> int:
    """Prints the LLR of a sequential test, its bounds, the decision and the Elo estimate."""
    from stratbench.rating.sprt import (  # cli: loads numpy and scipy; a typo is answered first
        ELO_MODELS,
        expected_units_left,
        sprt_pentanomial,
        sprt_wdl,
    )

    if (args.wdl is None) == (args.pentanomial is None):
        raise InputError("give one of --wdl W,D,L and --pentanomial LL,LD,D,WD,WW")
    elo0, elo1 = _number("--elo0", args.elo0), _number("--elo1", args.elo1)
    if elo0 >= elo1:
        raise InputError(f"--elo0 {args.elo0} --elo1 {args.elo1}: expected elo0 < elo1")
    alpha, beta = _rate("--alpha", args.alpha), _rate("--beta", args.beta)
    if args.elo_model not in ELO_MODELS:
        raise InputError(f"--elo-model {args.elo_model!r}: expected one of {', '.join(ELO_MODELS)}")
    problem = validate(elo0, elo1, ("--elo0", "--elo1"), logistic=args.elo_model == "logistic")
    if problem:
        raise InputError(problem)
    options = {"alpha": alpha, "beta": beta, "elo_model": args.elo_model}
    try:
        if args.wdl is not None:
            wins, draws, losses = _counts("--wdl", args.wdl, "W,D,L")
            result, unit = sprt_wdl(wins, draws, losses, elo0, elo1, **options), "games"
        else:
            result, unit = sprt_pentanomial(_counts("--pentanomial", args.pentanomial, "LL,LD,D,WD,WW"), elo0, elo1,
                                            **options), "pairs"
    except ValueError as error:  # bounds outside what the normalized model supports
        raise InputError(f"--elo0 {args.elo0} --elo1 {args.elo1}: {str(error).split(': ', 1)[-1]}") from None
    print(f"LLR {result.llr:.2f} ({result.lower:.2f}, {result.upper:.2f})")
    decision = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "continue"}[result.decision]
    if not result.units:
        print(f"{decision}, no {unit} yet")
        return 0
    name = "Elo" if args.elo_model == "logistic" else "nElo"
    estimate, low, high = (round(value, 2) + 0.0 for value in (result.estimate, *result.interval))  # no "-0.00"
    line = f"{decision}, {name} {estimate:+.2f} (95% {low:+.2f}, {high:+.2f}) over {result.units} {unit}"
    left = expected_units_left(result)
    if result.decision == "continue" and left is not None:
        line += f"; about {math.ceil(left)} more {unit} to a decision"
    print(line)
    return 0


def _counts(option: str, text: str, names: str) -> list[int]:
    parts = text.split(",")
    expected = len(names.split(","))
    if len(parts) != expected:
        raise InputError(f"{option} {text!r}: expected {expected} counts {names}, got {len(parts)}")
    try:
        counts = [int(part) for part in parts]
    except ValueError:
        raise InputError(f"{option} {text!r}: counts must be whole numbers >= 0") from None
    if min(counts) < 0:
        raise InputError(f"{option} {text!r}: counts must be whole numbers >= 0")
    return counts


def _number(option: str, text: str | None) -> float:
    if text is None:
        raise InputError(f"{option}: required")
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{option} {text!r}: expected a number") from None
    if not math.isfinite(value):
        raise InputError(f"{option} {text!r}: expected a finite number")
    return value


def _rate(option: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 0.5:
        raise InputError(f"{option} {text!r}: expected a number in (0, 0.5)")
    return value


def build_parser() -> argparse.ArgumentParser:
    """Builds the argument parser."""
    parser = argparse.ArgumentParser(prog="stratbench",
                                     description="Rate, report, merge and gate stratbench results; "
                                                 "build a leaderboard over runs.")
    commands = parser.add_subparsers(dest="command", required=True)
    rate = commands.add_parser("rate", help="Print the ratings table for result files")
    rate.add_argument("files", nargs="+", type=Path, metavar="FILE", help="results.jsonl or GameBench matches.json")
    rate.add_argument("--compat", choices=["gamebench"], help="Replay GameBench's exact rating procedure")
    rate.add_argument("--resamples", type=positive_int, default=None, metavar="B", help="Bootstrap resamples")
    rate.add_argument("--intervals", action="store_true", help="Show percentile intervals")
    rate.set_defaults(run=cmd_rate)
    report = commands.add_parser("report", help="Render reports from stored results")
    report.add_argument("dirs", nargs="+", type=Path, metavar="DIR")
    report.add_argument("--out", type=Path, default=None, metavar="DIR", help="Output directory (default: the first DIR)")
    report.add_argument("--resamples", type=positive_int, default=10_000, metavar="B")
    report.set_defaults(run=cmd_report)
    audit = commands.add_parser(
        "audit", help="Check the harness itself: refusal rates, reasons and flags (exit 1 on a flag)",
        description="Per game and agent: illegal, unreadable, truncated, fallback (per decision) and forfeit "
                    "(per match) rates, the rejected answers by reason with verbatim examples from the "
                    "transcripts, and flags where the harness, not the model, is the likely cause. Exit 0 "
                    "without flags, 1 with any, 2 for bad input.")
    audit.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="A report directory or results.jsonl")
    audit.add_argument("--notation-threshold", type=float, default=NOTATION_THRESHOLD, metavar="F",
                       help="Flag a game when more than this share of its rejected answers name a legal action "
                            "in another notation (default %(default)s)")
    audit.add_argument("--unreadable-threshold", type=float, default=UNREADABLE_THRESHOLD, metavar="F",
                       help="Flag a game when every agent whose answers are read (and read in other games) had "
                            "at least this share of unreadable answers (default %(default)s)")
    audit.add_argument("--prompt-samples", type=non_negative_int, default=3, metavar="N",
                       help="Check N sampled decisions of every game and protocol the run played: the actions "
                            "each prompt lists against the engine's, and an answer written as it instructs read "
                            "back (flag 'prompt'; default %(default)s, 0: no check)")
    audit.set_defaults(run=cmd_audit)
    sprt = commands.add_parser(
        "sprt", help="Print the LLR and decision of a sequential test (GSPRT) on game or pair counts",
        description="The generalized sequential probability ratio test of H0: Elo = E0 against H1: Elo = E1 on "
                    "counts from the tested side's view, computed as Fishtest and fastchess compute it. Prints "
                    "'LLR <value> (<lower>, <upper>)', then the decision (H0 accepted, H1 accepted or continue) "
                    "with the Elo estimate and its 95%% interval. Exit 0 whatever the decision.")
    sprt.add_argument("--wdl", default=None, metavar="W,D,L", help="Games won, drawn and lost")
    sprt.add_argument("--pentanomial", default=None, metavar="LL,LD,D,WD,WW",
                      help="Pairs scoring 0, 1/2, 1, 3/2 and 2 points (D: a double draw or a win-loss pair)")
    sprt.add_argument("--elo0", default=None, metavar="E0", help="Elo difference of H0")
    sprt.add_argument("--elo1", default=None, metavar="E1", help="Elo difference of H1 (greater than E0)")
    sprt.add_argument("--alpha", default="0.05", metavar="A", help="P(accept H1 | H0), in (0, 0.5) (default 0.05)")
    sprt.add_argument("--beta", default="0.05", metavar="B", help="P(accept H0 | H1), in (0, 0.5) (default 0.05)")
    sprt.add_argument("--elo-model", default="logistic", metavar="logistic|normalized",
                      help="Scale of E0 and E1: logistic Elo or normalized Elo (default logistic)")
    sprt.set_defaults(run=cmd_sprt)
    merge = commands.add_parser(
        "merge", help="Combine result shards",
        description="Combine result shards (report directories or results.jsonl files) into OUT, a new "
                    "directory, deduplicated by match id, and write its results.json, report.md and report.html as "
                    "one run of all the matches would. A match stored twice with the same outcome is kept "
                    "once; two records of one match id that differ in outcome (game, seed, variant, sides, "
                    "scores, result, terminal state, turns, illegal actions) are a conflict: each is printed "
                    "with the two files, nothing is written and the exit status is 2, unless --prefer "
                    "chooses a side.")
    merge.add_argument("out", type=Path, metavar="OUT", help="New output directory (must not hold a results.jsonl)")
    merge.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="Report directory or results.jsonl")
    merge.add_argument("--prefer", default=None, metavar="first|last|PATH",
                       help="On a conflict keep the record of the first input given, of the last, or of "
                            "input PATH (one of the DIRs; conflicts between other inputs stay errors)")
    merge.add_argument("--resamples", type=positive_int, default=10_000, metavar="B",
                       help="Bootstrap resamples of the merged report (default 10000, as pytest's "
                            "--stratbench-bootstrap)")
    merge.add_argument("--no-report", dest="report", action="store_false",
                       help="Write only results.jsonl (and transcripts), not results.json and the reports")
    merge.set_defaults(run=cmd_merge)
    gate = commands.add_parser(
        "gate", help="Pass, fail or inconclusive: did an agent regress against a baseline?",
        description="A sequential probability ratio test per game and agent on paired matches (the same match "
                    "in both runs; without BASELINE, NEW against OLD with the seats swapped). Exit status: 0 "
                    "pass, 1 fail, 6 inconclusive, 4 nothing compared, 2 bad input.")
    gate.add_argument("current", type=Path, metavar="CURRENT")
    gate.add_argument("baseline", type=Path, metavar="BASELINE", nargs="?", default=None,
                      help="Baseline run; left out: a head-to-head gate of --map NEW=OLD within CURRENT")
    gate.add_argument("--map", action="append", default=[], metavar="NEW=OLD", help="Compare agent NEW with baseline agent OLD")
    gate.add_argument("--elo0", "--gate-elo0", type=finite_float, default=-50.0, metavar="E",
                      help="H0: the regression to catch, in Elo (default -50)")
    gate.add_argument("--elo1", "--gate-elo1", type=finite_float, default=0.0, metavar="E",
                      help="H1: no regression, in Elo (default 0)")
    gate.add_argument("--alpha", "--gate-alpha", type=error_rate, default=0.05, metavar="A",
                      help="Chance a regression of elo0 passes (default 0.05)")
    gate.add_argument("--beta", "--gate-beta", type=error_rate, default=0.05, metavar="B",
                      help="Chance an unchanged agent fails (default 0.05)")
    gate.add_argument("--elo-model", "--gate-elo-model", choices=("logistic", "normalized"), default="normalized",
                      help="Elo of a head-to-head gate's win/draw/loss pairs (default normalized); against a baseline "
                           "the gate always tests normalized Elo")
    gate.add_argument("--score-margin", "--gate-score-margin", type=score_margin, default=0.1, metavar="S",
                      help="H0 for games other than win/draw/loss: a mean drop of this share of the score range")
    gate.add_argument("--inconclusive", "--gate-inconclusive", choices=("inconclusive", "pass", "fail"),
                      default="inconclusive", help="Exit status of an undecided gate: 6 (default), 0 or 1")
    gate.add_argument("--tolerance", type=non_negative_float, default=0.0, metavar="R",
                      help="Rating points of slack for the rating-interval note")
    gate.add_argument("--resamples", type=positive_int, default=10_000, metavar="B")
    gate.set_defaults(run=cmd_gate)
    board = commands.add_parser(
        "leaderboard", help="Write a static leaderboard site over many runs",
        description="Reads runs (report directories, results.jsonl or results.json files, or folders searched "
                    "recursively for them) and writes index.html (one ranked list per pool of runs whose settings "
                    "agree, what keeps pools apart folded under one line), history.html (each agent's rating and "
                    "scores run by run) and models/<model>.html (links into each run's report and match pages, "
                    "copied into OUT where a run lies outside it) into OUT. The pages need no script and load "
                    "nothing.")
    board.add_argument("runs", nargs="+", type=Path, metavar="RUN", help="Report directory, result file or folder")
    board.add_argument("--out", type=Path, default=Path("leaderboard"), metavar="DIR",
                       help="Output directory (default: ./leaderboard)")
    board.add_argument("--map", action="append", default=[], metavar="NEW=OLD",
                       help="Draw agent NEW as the continuation of OLD (a model upgrade, as the gate takes it)")
    board.add_argument("--baseline", default=None, metavar="AGENT",
                       help="Agent the cost per rating point is measured from")
    board.add_argument("--resamples", type=positive_int, default=2000, metavar="B",
                       help="Bootstrap resamples per pool and run (default 2000)")
    board.set_defaults(run=cmd_leaderboard)
    play = commands.add_parser(
        "play", help="Play a game against a model (or an agent) in your browser, recorded and rated like any match",
        description="Starts a page on 127.0.0.1 (a free port, a one-time token in its address), prints its "
                    "address and opens it, and plays one match of GAME with you as human:NAME through the "
                    "plugin's own path (pytest in-process): the record goes to --report-dir/results.jsonl, "
                    "the model's cassette and your moves to --cassette-dir; --replay plays it back offline. "
                    "Exit status: pytest's (0 played), 2 for a refused argument.")
    add_play_arguments(play)
    play.set_defaults(run=cmd_play)
    return parser


def cmd_play(args: argparse.Namespace) -> int:
    """Plays one match against a model on a local page (:mod:`stratbench.human_web.play`)."""
    try:
        return run_play(args)
    except PlayError as error:
        raise InputError(str(error)) from None


STDOUT_CLOSED = 128 + 13
"""The exit status of a command whose reader closed its standard output, as a shell reports SIGPIPE."""


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status.

    A reader that closes standard output early (``stratbench rate ... | head``) ends the command quietly
    with :data:`STDOUT_CLOSED`. SIGPIPE keeps Python's handling: its default action would be the whole
    process's, and would kill a ``stratbench play`` page server (or a caller running this in-process)
    on any socket a browser closes.
    """
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()  # a closed reader shows here, not in the interpreter's exit
        return status
    except InputError as error:
        print(f"stratbench {args.command}: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        if not _stdout_closed():
            raise
        return STDOUT_CLOSED


def _stdout_closed() -> bool:
    """After a broken pipe: whether it was standard output's; if so, points it at /dev/null for the exit.

    A pipe or socket whose reader is gone polls as an error or hang-up on the writing side.
    """
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a stream without a descriptor: nothing to poll or redirect
        return True
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(descriptor, select.POLLOUT)
        if not any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0)):
            return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)
    return True


if __name__ == "__main__":
    sys.exit(main())
