"""The out-of-tree example family (examples/stratbench-nim) installs and runs as a user's own package would.

The example is built and pip-installed (no network) into a folder of its own, which the runs put on their
path, as a site folder a user installs into is: its suite played with ``pytest``, then reported on and
rated with ``stratbench report`` / ``stratbench rate``. Nothing under ``plugin/`` names the example: the
core finds it only through its ``stratbench`` entry point (its installed metadata). The runs are
forked from the tests' warm starter (stratbench.testing.warm_pytest), which never imported the example.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

import stratbench
from stratbench.run.results import read_transcript
from stratbench.testing.warm_pytest import run_module
from stratbench.testing.written import readable_text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "stratbench-nim"
PLUGIN_DIR = Path(stratbench.__file__).resolve().parents[1]
HEAP_SETS = ("3,4,5", "1,2,3", "random")
VARIANTS = ["1-2-3", "3-4-5", "random"]
MATCHES = 10
"""Matches per heap set: the suite's 10 (random against nim/perfect, seats swapped halfway)."""


def test_the_core_never_names_the_example():
    """No source file under plugin/ names Nim or its package (``minimax`` and the like are other words); pip's
    ``*.egg-info`` there is a build artefact copying README, which links the example."""
    pattern = re.compile(r"\bnim\b|stratbench_nim", re.IGNORECASE)
    named = [f"{path.relative_to(PLUGIN_DIR)}:{number}"
             for path in sorted(PLUGIN_DIR.rglob("*")) if path.is_file() and path.suffix != ".pyc"
             and not any(part.endswith(".egg-info") for part in path.relative_to(PLUGIN_DIR).parts)
             for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1) if pattern.search(line)]
    assert named == []


def _environment(site: Path, **extra: str) -> dict[str, str]:
    """The environment of the example's commands: this one's, with the example's install folder as the path."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env.update(LITELLM_LOCAL_MODEL_COST_MAP="True", PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION="python",
               PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(site), **extra)
    return env


def _run(site: Path, module: str, *args: str | Path, cwd: Path, check: bool = True,
         **env: str) -> subprocess.CompletedProcess[str]:
    """Runs ``python -m MODULE ARGS`` with the example installed (in ``site``)."""
    done = run_module(module, [str(arg) for arg in args], cwd=cwd, env=_environment(site, **env), timeout=600)
    if check:
        assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def nim_install(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The example built and installed into a folder of its own; returns that folder and the example's copy (the
    suite's root). It is installed from a copy, as an sdist user would, so its build leaves nothing in the
    repository; stratbench and every dependency come from this interpreter's environment."""
    base = tmp_path_factory.mktemp("nim")
    example = base / "stratbench-nim"
    shutil.copytree(EXAMPLE, example, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = base / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                                "--no-index", "--quiet", "--target", str(site), str(example)], cwd=base,
                               capture_output=True, text=True, timeout=600, check=False)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    assert list(site.glob("stratbench_nim-*.dist-info/entry_points.txt")), "the example's entry point is installed"
    return site, example


@pytest.fixture(scope="module")
def nim_run(nim_install: tuple[Path, Path]) -> tuple[Path, Path, list[dict]]:
    """Plays the example suite with three heap sets; returns the example's install folder, the report
    directory and the match records, each with ``start``: the heaps of its transcript's first board."""
    site, example = nim_install
    report_dir = example.parent / "R"
    heaps = [arg for value in HEAP_SETS for arg in ("--nim-heaps", value)]
    _run(site, "pytest", example / "suites" / "test_nim.py", "-p", "no:cacheprovider", "-q",
         "--report-dir", report_dir, *heaps, cwd=example.parent)
    lines = (report_dir / "results.jsonl").read_text().splitlines()
    records = [record for record in map(json.loads, lines) if record.get("type") == "match"]
    for record in records:
        events = read_transcript(report_dir / record["transcript"])["events"]
        record["start"] = next(event["board"]["heaps"] for event in events if event.get("kind") == "board")
    return site, report_dir, records


def _side_of(record: dict, agent: str) -> int:
    (side,) = [i for i, entry in enumerate(record["sides"]) if entry["agent"] == agent]
    return side


@pytest.mark.slow
def test_every_match_is_scored_on_the_games_scale(nim_run):
    _, _, records = nim_run
    assert len(records) == MATCHES * len(HEAP_SETS)
    assert {record["status"] for record in records} == {"scored"}
    assert {(record["game"], record["family"]) for record in records} == {("nim/nim", "nim")}
    for record in records:
        assert record["score_range"] == [0.0, 1.0] and record["score_sum"] == 1.0
        assert sorted(record["scores"]) == [0.0, 1.0], record["test_id"]  # no draws in Nim
        assert record["illegal"] == [0, 0] and record["forfeited_by_side"] is None
        assert record["turns"] <= sum(record["start"]) and record["turns"] == sum(record["decisions"])


@pytest.mark.slow
def test_the_heaps_option_names_each_match_and_enters_its_hash(nim_run):
    _, _, records = nim_run
    by_variant: dict[str, list[dict]] = {}
    for record in records:
        by_variant.setdefault(record["variant"], []).append(record)
    assert sorted(by_variant) == VARIANTS
    for variant, group in by_variant.items():
        assert len(group) == MATCHES
        assert all(f"-{variant}-" in record["test_id"] for record in group)
        if variant != "random":
            assert all(record["start"] == [int(size) for size in variant.split("-")] for record in group)
    # a random start is drawn from the seed (in the id): 3 to 5 heaps of 1 to 7 tokens, not all alike
    starts = [record["start"] for record in by_variant["random"]]
    assert all(3 <= len(start) <= 5 and all(1 <= size <= 7 for size in start) for start in starts)
    assert len({tuple(start) for start in starts}) > 1
    ids = {record["test_id"].replace(record["variant"], "*"): record["settings_hash"] for record in by_variant["3-4-5"]}
    others = {record["test_id"].replace(record["variant"], "*"): record["settings_hash"]
              for record in by_variant["1-2-3"]}
    assert ids.keys() == others.keys()  # the same seeds and seats...
    assert all(ids[key] != others[key] for key in ids)  # ...played on other heaps: another match


@pytest.mark.slow
def test_the_metric_counts_optimal_moves_and_the_perfect_agent_never_gives_a_win_away(nim_run):
    _, _, records = nim_run
    for record in records:
        for side, entry in enumerate(record["sides"]):
            (player,) = entry["players"]
            metric = record["metrics"][str(player)]
            assert metric["moves"] == record["decisions"][side]
            assert 0 <= metric["optimal_moves"] <= metric["moves"]
            assert 0.0 <= metric["optimal_move_share"] <= 1.0
            assert metric["optimal_move_share"] == pytest.approx(metric["optimal_moves"] / metric["moves"])
        perfect = _side_of(record, "nim/perfect")
        metric = record["metrics"][str(record["sides"][perfect]["players"][0])]
        won = record["scores"][perfect] == 1.0
        # Once it faces a non-zero nim-sum it keeps the win: every such move is optimal, and it wins.
        assert metric["optimal_moves"] == metric["winnable_moves"]
        assert won == (metric["winnable_moves"] > 0), record["test_id"]
        if perfect == 0 and reduce(xor, record["start"]):
            assert won, record["test_id"]  # a winning start position, and it moves first
        if perfect == 1 and not reduce(xor, record["start"]):
            assert won, record["test_id"]  # the first mover starts from a lost position
    first_wins = [r for r in records if r["variant"] == "3-4-5" and _side_of(r, "nim/perfect") == 0]
    assert len(first_wins) == MATCHES // 2


@pytest.mark.slow
def test_the_report_has_the_nim_section_and_the_replay_draws_the_heaps(nim_run):
    site, report_dir, records = nim_run
    out = report_dir.parent / "R2"
    _run(site, "stratbench.cli", "report", report_dir, "--out", out, cwd=report_dir.parent)
    markdown = (out / "report.md").read_text()
    assert "### Nim" in markdown
    for agent in ("nim/perfect", "random"):
        for variant in VARIANTS:
            mine = [r for r in records if r["variant"] == variant and any(s["agent"] == agent for s in r["sides"])]
            wins = sum(r["scores"][_side_of(r, agent)] == 1.0 for r in mine)
            moves = sum(r["decisions"][_side_of(r, agent)] for r in mine)
            row = re.search(rf"^\| {re.escape(agent)} \| {variant} \| (\d+) \| (\d+) \| ([\d.]+) \| (\d+) \| (\d+) \| "
                            r"([\d.]+) \|$", markdown, re.MULTILINE)
            assert row is not None, (agent, variant)
            assert (int(row[1]), int(row[2]), int(row[4])) == (len(mine), wins, moves)
            assert float(row[3]) == pytest.approx(wins / len(mine), abs=0.005)
            assert 0 <= int(row[5]) <= moves and float(row[6]) == pytest.approx(int(row[5]) / moves, abs=0.005)
    assert "Nim" in (out / "report.html").read_text()
    pages = sorted((out / "transcripts").glob("*.html"))
    assert len(pages) == len(records)
    assert all('class="nim-heaps"' in readable_text(page) for page in pages)


@pytest.mark.slow
def test_rate_lists_the_nim_agents(nim_run):
    site, report_dir, records = nim_run
    done = _run(site, "stratbench.cli", "rate", report_dir / "results.jsonl", cwd=report_dir.parent)
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines() if line.split()}
    assert "nim/nim" in done.stdout
    assert set(rows) >= {"nim/perfect", "random"}
    won = sum(record["scores"][_side_of(record, "nim/perfect")] for record in records) / len(records)
    assert rows["nim/perfect"][:2] == [f"{won:.2f}", f"({len(records)})"]
    assert rows["random"][:2] == [f"{1 - won:.2f}", f"({len(records)})"]


REFUSED_HEAPS = {
    "3,x": "heap sizes must be whole numbers separated by commas (like 3,4,5) or 'random', got '3,x'",
    "1,2,3,4,5,6,7,8,9": "between 1 and 8 heaps are allowed, got 9",
    "0,3": "each heap holds 1 to 30 tokens, got '0,3'",
}
"""Bad ``--nim-heaps`` values and their messages, as the example's README lists them."""


@pytest.mark.slow
def test_bad_heaps_are_refused_naming_the_option(nim_install):
    site, example = nim_install
    readme = (EXAMPLE / "README.md").read_text()
    for value, message in REFUSED_HEAPS.items():
        done = _run(site, "pytest", example / "suites" / "test_nim.py", "-p", "no:cacheprovider",
                    "--nim-heaps", value, cwd=example.parent, check=False)
        assert done.returncode == 4, value
        assert f"error: argument --nim-heaps: {message}\n" in done.stderr
        assert "Traceback" not in done.stderr
        assert f"| `--nim-heaps {value}` | 4 | `argument --nim-heaps: {message}` |" in readme


@pytest.mark.slow
def test_the_game_passes_the_conformance_checks_of_every_installed_game(nim_install):
    """tests/games/test_conformance.py covers whatever families are installed: with the example installed, Nim too."""
    site, _ = nim_install
    done = _run(site, "pytest", ROOT / "tests" / "games" / "test_conformance.py", "-p", "no:cacheprovider",
                "-q", "-k", "nim/", "-rA", cwd=ROOT)
    passed = sorted(line.split("::")[-1] for line in done.stdout.splitlines() if line.startswith("PASSED"))
    assert passed == ["test_random_playouts_conform[nim/nim-3-4-5]",
                      "test_replay_snapshots_are_plain_data_and_draw[nim/nim-3-4-5]"]


@pytest.mark.slow
def test_a_model_plays_nim_with_the_familys_strategy_guide(nim_install, fake_llm):
    """A model seat (the loopback server, answering the first legal move) under the guide scaffold: the guide
    comes from the family's own folder (guides/nim/nim.md for the namespaced game nim/nim)."""
    site, example = nim_install
    report_dir = example.parent / "R-model"
    _run(site, "pytest", example / "suites" / "test_nim.py", "-p", "no:cacheprovider", "-q",
         "--model", "openai/fake", "--scaffold", "guide", "--api-base", fake_llm.api_base, "--record-mode", "all",
         "--matches", "2", "--report-dir", report_dir, cwd=example.parent, OPENAI_API_KEY="sk-loopback")
    records = [json.loads(line) for line in (report_dir / "results.jsonl").read_text().splitlines()]
    played = [r for r in records if r.get("type") == "match" and any(s["agent"] == "openai/fake+guide"
                                                                     for s in r["sides"])]
    assert len(played) == 2 and {r["status"] for r in played} == {"scored"}
    guide = (EXAMPLE / "stratbench_nim" / "guides" / "nim" / "nim.md").read_text().strip()
    for record in played:
        side = _side_of(record, "openai/fake+guide")
        assert record["usage"][side]["calls"] == record["decisions"][side] > 0
        events = read_transcript(report_dir / record["transcript"])["events"]
        systems = [e["messages"][0]["content"] for e in events if e.get("kind") == "llm_call"]
        assert systems and all(text.endswith(f"Strategy guide for Nim:\n{guide}") for text in systems)
        metric = record["metrics"][str(record["sides"][side]["players"][0])]
        assert metric["moves"] == record["decisions"][side] and 0.0 <= metric["optimal_move_share"] <= 1.0
