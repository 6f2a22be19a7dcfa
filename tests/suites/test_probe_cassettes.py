"""The committed memorisation probes, as the model read them: no original PDDL name in any recorded prompt.

The probes (``probes`` in ``cassettes/reference.json``) were recorded against
the live model; this scans every request of each PDDL probe cassette for the
original task's identifiers in the domain and problem the model was shown,
so a renaming that leaked into a real recording cannot go unnoticed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from stratbench.core.obfuscation import Obfuscation
from stratbench.games.spin.pddl import PddlGame
from stratbench.games.spin.planning.obfuscate import KEYWORDS

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"
PROBES = sorted((CASSETTES / "spin" / "test_pddl").rglob("*-obf-*.yaml"))
FENCED = re.compile(r"```(?:pddl)?\n(.*?)```", re.S)
_NAME = re.compile(r"-(?P<domain>[a-z0-9-]+)_(?P<problem>p\d+)-s\d+-obf-(?P<mode>[a-z]+)-s(?P<seed>\d+)\.yaml$")


def _shown_pddl(path: Path) -> list[str]:
    """The fenced PDDL of every user or system message of every recorded request."""
    texts = []
    for interaction in yaml.safe_load(path.read_text())["interactions"]:
        body = interaction["request"]["body"]
        if body is None:  # the server check before the first call (GET /v1/models)
            continue
        for message in json.loads(body if isinstance(body, str) else json.dumps(body))["messages"]:
            content = message.get("content")
            parts = [content] if isinstance(content, str) else [p.get("text", "") for p in content or []]
            if message.get("role") in ("user", "system"):
                texts += [block for part in parts for block in FENCED.findall(part)]
    return texts


def _names(name: str, text: str) -> bool:
    """Whether ``text`` holds ``name`` as a whole PDDL identifier (not inside another, nor as ``?name``)."""
    return re.search(r"(?<![\w?:-])" + re.escape(name) + r"(?![\w-])", text, re.IGNORECASE) is not None


def test_the_probes_are_committed():
    assert len(PROBES) >= 3, "cassettes/reference.json records PDDL probes; none is committed"


@pytest.mark.parametrize("path", PROBES, ids=lambda p: p.stem)
def test_no_original_identifier_reaches_a_recorded_prompt(path):
    found = _NAME.search(path.name)
    assert found, f"{path.name}: not a probe cassette name"
    variant = f"{found['domain']}/{found['problem']}"
    game = PddlGame(variant, obfuscation=Obfuscation.parse(f"{found['mode']}:{found['seed']}"))
    originals = {name for name in game.renamed.originals() if name.lower() not in KEYWORDS}
    shown = _shown_pddl(path)
    assert len(shown) >= 2, f"{path.name}: expected the domain and the problem in the prompt"
    leaks = sorted({name for name in originals for text in shown
                    if _names(name, text)})
    assert leaks == []  # (a renaming never reuses an original name: core/obfuscation)


def test_the_scan_finds_the_names_in_an_original_recording():
    """The scan can fail: the same task's original recording shows every kind of name."""
    original = next((CASSETTES / "spin" / "test_pddl").rglob("local_qwen2.5-coder-0.5b+direct-blocksworld_p01-s0.yaml"))
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation.parse("mystery:7"))
    shown = "\n".join(_shown_pddl(original))
    found = {name for name in game.renamed.originals() - KEYWORDS
             if _names(name, shown)}
    assert {"on", "clear", "stack", "unstack", "blocksworld"} <= {name.lower() for name in found}
