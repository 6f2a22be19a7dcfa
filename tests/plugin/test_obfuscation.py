"""--obfuscate MODE[:SEED] and --seed-salt: a renamed probe beside each match of a game that supports it, with
its own id, cassette, record and settings hash; the salt written nowhere; bad values refused."""

from __future__ import annotations

import hashlib
import json

import pytest

from stratbench.core.obfuscation import Obfuscation, salt_tag
from stratbench.llm.cassettes import cassette_path

CONFTEST = """
from dataclasses import replace

from stratbench.games.spin.tictactoe import TicTacToe, TicTacToeState


class LabelledState(TicTacToeState):
    def _legal_actions(self, player):
        return [self.game.cell_names[cell] for cell in super()._legal_actions(player)]

    def _apply(self, actions):
        ((player, action),) = actions.items()
        cell = int(self.game.cells[action.id])
        self.board = self.board[:cell] + "XO"[player] + self.board[cell + 1:]


class Labelled(TicTacToe):
    # Tic-Tac-Toe whose cells a renaming relabels: what the model reads and writes changes, the rules do not.
    info = replace(TicTacToe.info, name="labelled")
    supports_obfuscation = True

    def __init__(self, obfuscation=None):
        super().__init__()
        cells = [str(i) for i in range(9)]
        self.cell_names = obfuscation.rename(cells, "labelled:cell") if obfuscation else {c: c for c in cells}
        self.cells = {name: cell for cell, name in self.cell_names.items()}

    def new_initial_state(self, seed):
        return LabelledState(self)

    def snapshot(self, state):
        return {"board": state.board}


class Plain(TicTacToe):
    info = replace(TicTacToe.info, name="plain")
    supports_obfuscation = False


def pytest_stratbench_add_games(registry):
    registry.add_game("labelled", Labelled)
    registry.add_game("plain", Plain)
"""

SUITE = """
import pytest

@pytest.mark.stratbench(game="labelled", opponents=["random"], baselines=[], matches=2)
def test_labelled(match):
    match.play()

@pytest.mark.stratbench(game="plain", opponents=["random"], baselines=[], matches=1)
def test_plain(match):
    match.play()
"""

SALT = "team-secret-salt-42"


def _records(pytester, report="reports/latest"):
    return [json.loads(line) for line in (pytester.path / report / "results.jsonl").read_text().splitlines()]


def _param(record):
    return record["match_id"].split("[", 1)[1].rstrip("]")


def test_each_match_of_a_renamable_game_gets_a_probe_beside_it(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-agent", "random",
                                           "--obfuscate", "mystery:7", "--obfuscate", "random",
                                           "--stratbench-bootstrap", "50")
    assert result.ret == 0, result.stdout.str()[-3000:]
    records = {_param(r): r for r in _records(pytester) if r["match_id"].split("::")[1].startswith("test_labelled")}
    assert sorted(records) == [
        "random-vs-random-s0", "random-vs-random-s0-obf-mystery-s7", "random-vs-random-s0-obf-random-s0",
        "random-vs-random-s1", "random-vs-random-s1-obf-mystery-s7", "random-vs-random-s1-obf-random-s0",
    ]
    assert all(r["status"] == "scored" for r in records.values())
    probe, original = records["random-vs-random-s1-obf-mystery-s7"], records["random-vs-random-s1"]
    assert probe["game_options"] == {"obfuscation": "mystery:7", "obfuscation_tag": "obf-mystery-s7"}
    assert original["game_options"] == {}
    assert (probe["seed"], probe["variant"], probe["subject"]) == (original["seed"], original["variant"],
                                                                  original["subject"])
    assert [s["agent"] for s in probe["sides"]] == [s["agent"] for s in original["sides"]]
    assert probe["settings_hash"] != original["settings_hash"]
    assert records["random-vs-random-s1-obf-random-s0"]["settings_hash"] not in (probe["settings_hash"],
                                                                                   original["settings_hash"])
    plain = [_param(r) for r in _records(pytester) if "test_plain" in r["match_id"]]
    assert plain == ["random-vs-random-s0"]  # a game without supports_obfuscation gets no probe
    result.stdout.fnmatch_lines(["--obfuscate: games without renamed variants: plain"])
    report = json.loads((pytester.path / "reports/latest/results.json").read_text())
    assert not [n for n in report["notes"] if "section" in n]
    section = next(s for s in report["sections"] if s["name"] == "memorisation")
    rows = {(row[1], row[2]): row for row in section["rows"]}
    assert sorted(rows) == [("labelled", "obf-mystery-s7"), ("labelled", "obf-random-s0"), ("labelled", "original")]
    assert rows[("labelled", "obf-mystery-s7")][8] == 2  # one pair per seed (the subject's side: no model plays)
    assert rows[("labelled", "original")][4] == 2


def test_the_salt_enters_ids_as_a_digest_and_is_written_nowhere(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=SUITE)
    args = ["-p", "no:cacheprovider", "--stratbench-agent", "random", "--obfuscate", "deceptive:3",
            "--stratbench-bootstrap", "50"]
    salted = pytester.runpytest_subprocess(*args, "--seed-salt", SALT, "--report-dir", "salted")
    assert salted.ret == 0, salted.stdout.str()[-3000:]
    unsalted = pytester.runpytest_subprocess(*args, "--report-dir", "plain")
    assert unsalted.ret == 0
    tag = f"obf-deceptive-s3-k{salt_tag(SALT)}"
    assert tag == Obfuscation.parse("deceptive:3", SALT).tag
    assert hashlib.sha256(SALT.encode()).hexdigest()[:6] not in tag  # no unkeyed, fast digest to guess against
    salted_records = {_param(r): r for r in _records(pytester, "salted") if "labelled" in r["game"]}
    plain_records = {_param(r): r for r in _records(pytester, "plain") if "labelled" in r["game"]}
    assert f"random-vs-random-s0-{tag}" in salted_records
    assert "random-vs-random-s0-obf-deceptive-s3" in plain_records
    assert (salted_records[f"random-vs-random-s0-{tag}"]["settings_hash"]
            != plain_records["random-vs-random-s0-obf-deceptive-s3"]["settings_hash"])
    assert salted_records[f"random-vs-random-s0-{tag}"]["game_options"] == {
        "obfuscation": "deceptive:3", "obfuscation_tag": tag}
    written = [p for p in (pytester.path / "salted").rglob("*") if p.is_file()]
    assert any(p.name == "results.jsonl" for p in written) and any(p.suffix == ".html" for p in written)
    for path in written:
        assert SALT not in path.read_text(errors="replace"), path
    assert SALT not in salted.stdout.str() + salted.stderr.str()


@pytest.mark.slow
def test_a_probe_with_a_model_records_its_own_cassette(pytester):
    from stratbench.testing.fake_llm import FakeLLMServer

    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=SUITE.replace("matches=2", "matches=1"))
    server = FakeLLMServer().start()
    try:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--model", "openai/m", "--api-base", server.api_base, "-k", "test_labelled",
            "--obfuscate", "mystery:7", "--seed-salt", SALT, "--stratbench-bootstrap", "50")
    finally:
        server.stop()
    assert result.ret == 0, result.stdout.str()[-3000:]
    records = {_param(r): r for r in _records(pytester)}
    tag = Obfuscation.parse("mystery:7", SALT).tag
    assert sorted(records) == ["openai/m+direct-vs-random-s0", f"openai/m+direct-vs-random-s0-{tag}"]
    probe = records[f"openai/m+direct-vs-random-s0-{tag}"]
    original = records["openai/m+direct-vs-random-s0"]
    assert probe["cassette"] != original["cassette"]
    expected = cassette_path(pytester.path / "cassettes", probe["match_id"])
    assert expected.name == f"openai_m+direct-vs-random-s0-{tag}.yaml" and expected.is_file()
    renamed = _renamed_cells(SALT)
    prompts = expected.read_text()
    assert any(name in prompts for name in renamed.values())  # the model read the renamed cells
    for path in (pytester.path / "cassettes").rglob("*"):
        if path.is_file():
            assert SALT not in path.read_text(errors="replace")


def _renamed_cells(salt):
    """The toy game's cell names under ``mystery:7``, as its factory renames them."""
    return Obfuscation.parse("mystery:7", salt).rename([str(i) for i in range(9)], "labelled:cell")


@pytest.mark.parametrize(("value", "message"), [
    ("magic", "argument --obfuscate: expected MODE or MODE:SEED with MODE one of random, mystery, deceptive, "
              "got 'magic'"),
    ("mystery:x", "argument --obfuscate: expected MODE or MODE:SEED with MODE one of random, mystery, deceptive, "
                  "got 'mystery:x'"),
])
def test_a_bad_obfuscate_value_exits_4_with_one_line(pytester, value, message):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--obfuscate", value)
    assert result.ret == 4
    errors = [line for line in result.stderr.str().splitlines() if "error:" in line]
    assert len(errors) == 1 and errors[0].endswith(message), result.stderr.str()
    assert "Traceback" not in result.stderr.str()
    assert not (pytester.path / "reports").exists()


def test_a_salt_without_a_renaming_is_refused(pytester):
    pytester.makepyfile(test_probe=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--seed-salt", SALT)
    assert result.ret == 4
    assert ("stratbench: --seed-salt: salts the renamings of --obfuscate, and none is given; add --obfuscate "
            "MODE[:SEED]") in result.stderr.str()
    assert SALT not in result.stderr.str() + result.stdout.str()


@pytest.mark.slow
def test_the_reference_recordings_get_only_the_probes_their_profile_recorded(pytester, fake_llm):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_probe=SUITE.replace('baselines=[], matches=2', 'baselines=["random"], matches=1'))
    (pytester.path / "cassettes").mkdir()
    profile = {"models": ["openai/ref"], "scaffolds": ["direct", "constrained"], "matches": 1, "max_tokens": 32}
    (pytester.path / "cassettes" / "reference.json").write_text(json.dumps(profile))

    def ids(*args):
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "-k",
                                               "test_labelled", *args)
        assert result.ret == 0, result.stdout.str()[-3000:]
        return sorted(line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "::test_labelled[" in line)

    # no probes in the profile: the run's --obfuscate renames the offline baselines' matches only
    assert ids("--obfuscate", "mystery:7") == ["openai/ref+constrained-vs-random-s0", "openai/ref+direct-vs-random-s0",
                                               "random-vs-random-s0", "random-vs-random-s0-obf-mystery-s7"]
    profile["probes"] = {"renamings": ["mystery:7", "random:3"], "models": ["openai/ref"],
                         "games": {"labelled": ["direct"]}}
    (pytester.path / "cassettes" / "reference.json").write_text(json.dumps(profile))
    recorded_ids = ["openai/ref+constrained-vs-random-s0", "openai/ref+direct-vs-random-s0",
                    "openai/ref+direct-vs-random-s0-obf-mystery-s7", "openai/ref+direct-vs-random-s0-obf-random-s3",
                    "random-vs-random-s0"]
    assert ids() == recorded_ids  # only the listed scaffold's matches, under the profile's renamings
    # the run's renaming joins the baselines; a reference match keeps the recorded ones (salted or not)
    assert ids("--obfuscate", "deceptive:1", "--seed-salt", SALT) == sorted(
        recorded_ids + [f"random-vs-random-s0-{Obfuscation.parse('deceptive:1', SALT).tag}"])

    recorded = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "test_labelled",
                                             "--stratbench-reference=record", "--api-base", fake_llm.api_base,
                                             "--stratbench-bootstrap", "20")
    assert recorded.ret == 0, recorded.stdout.str()[-3000:]
    fake_llm.stop()
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "test_labelled",
                                             "--stratbench-bootstrap", "20")
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    records = {_param(r): r for r in _records(pytester)}
    assert sorted(records) == recorded_ids
    probe = records["openai/ref+direct-vs-random-s0-obf-mystery-s7"]
    assert probe["cassette"]["record_mode"] == "none"
    assert probe["cassette"]["path"] != records["openai/ref+direct-vs-random-s0"]["cassette"]["path"]
    report = json.loads((pytester.path / "reports/latest/results.json").read_text())
    section = next(s for s in report["sections"] if s["name"] == "memorisation")
    rows = {(row[0], row[2]): row for row in section["rows"]}
    assert sorted(rows) == [("openai/ref+direct", "obf-mystery-s7"), ("openai/ref+direct", "obf-random-s3"),
                            ("openai/ref+direct", "original")]
    assert rows[("openai/ref+direct", "obf-mystery-s7")][8] == 1  # one pair: the recorded match and its probe
    assert 0.0 <= rows[("openai/ref+direct", "original")][7] <= 1.0


def test_the_salt_tag_is_slow_to_guess_and_a_short_salt_is_refused():
    import argparse
    import time

    from stratbench.core.obfuscation import SALT_TAG_COST
    from stratbench.options import salt_text

    assert SALT_TAG_COST["n"] * SALT_TAG_COST["r"] * 128 >= 16 * 2 ** 20  # at least 16 MB a guess (memory-hard)
    assert salt_tag("another-salt-1") != salt_tag("another-salt-2") and len(salt_tag("another-salt-1")) == 6
    for short in ("ours", "x" * 11, " " * 20):
        with pytest.raises(argparse.ArgumentTypeError) as refused:
            salt_text(short)
        assert "at least 12 characters" in str(refused.value) and (short.strip() == "" or short not in str(refused.value))
    assert salt_text("x" * 12) == "x" * 12
