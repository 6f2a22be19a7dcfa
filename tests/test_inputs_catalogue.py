"""docs/INPUTS.md's table of bad pytest options is true: each row exits as stated with its exact message."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

CATALOGUE = Path(__file__).resolve().parents[1] / "docs" / "INPUTS.md"
SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_tictactoe(match):
    match.play()
"""


def _rows() -> list[tuple[str, int, str]]:
    """Reads the rows of the 'pytest options' table: arguments, exit status, message."""
    text = CATALOGUE.read_text(encoding="utf-8")
    section = text.split("## pytest options", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        found = re.fullmatch(r"\| `(.+?)` \| (\d+) \| `(.+)` \|", line.strip())
        if found:
            rows.append((found.group(1), int(found.group(2)), found.group(3)))
    return rows


ROWS = _rows()


def test_the_catalogue_has_its_table():
    assert len(ROWS) >= 20


@pytest.mark.parametrize(("arguments", "status", "message"), ROWS, ids=[row[0] for row in ROWS])
def test_each_bad_option_gets_its_catalogued_line(pytester, arguments, status, message):
    pytester.makepyfile(test_one=SUITE)
    (pytester.path / "a-file").write_text("not a directory")
    (pytester.path / "empty").mkdir()
    (pytester.path / "bad-shape.json").write_text('{"matches": "x", "agents": 5}')
    (pytester.path / "a-list.json").write_text("[1, 2]")
    (pytester.path / "bad-row.json").write_text('{"matches": [{"match_id": "m", "game": "g", "agents": ["a"]}]}')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *shlex.split(arguments))
    assert result.ret == status, result.stderr.str()
    expected = message.replace("{dir}", str(pytester.path))
    assert expected in result.stderr.str(), result.stderr.str()
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert not list(pytester.path.glob("reports/**/*.json*"))  # nothing played, nothing recorded
