"""The harness's health: ``stratbench audit`` and the report's health section, on hand-made records."""

from __future__ import annotations

import json
from pathlib import Path

from report_records import EVIL, record, write_jsonl
from stratbench.cli import main
from stratbench.core.rejection import NO_ACTION, NOT_LEGAL, OTHER_NOTATION
from stratbench.report.analysis import analyse
from stratbench.report.health import NOTATION_FLAG, UNREADABLE_FLAG, harness_health
from stratbench.report.render import render_html, render_markdown


def _match(index: int, kinds: dict[str, int], answer: str, *, game: str = "chess") -> tuple[dict, list[dict]]:
    """One model-vs-engine match whose model side had ``kinds`` rejected, each answering ``answer``."""
    match_id = f"suites/test_{game}.py::test_{game}[m-vs-stockfish-s{index}]"
    transcript = f"transcripts/run-1/{game}-{index}.json"
    r = record(match_id, ("m", "stockfish"), game=game, seed=index, models=("openai/m", None), transcript=transcript)
    total = sum(kinds.values())
    unreadable = sum(n for k, n in kinds.items() if k != NOT_LEGAL)
    r.update(decisions=[10, 10], illegal=[total, 0], format_errors=[unreadable, 0], fallbacks=[0, 0],
             truncated=[0, 0], forfeited_by_side=None, rejected=[kinds, {}] if total else None)
    events = [{"kind": "rejected", "turn": 0, "player": 0, "attempt": 1, "error": "no", "why": kind, "answer": answer}
              for kind, count in kinds.items() for _ in range(count)]
    return r, events


def _run(tmp_path: Path, matches: list[tuple[dict, list[dict]]]) -> Path:
    for r, events in matches:
        path = tmp_path / r["transcript"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"match_id": r["match_id"], "events": events}), encoding="utf-8")
    write_jsonl(tmp_path / "results.jsonl", [r for r, _ in matches])
    return tmp_path


def test_audit_flags_a_reader_that_misses_another_notation(tmp_path, capsys):
    run = _run(tmp_path, [_match(k, {OTHER_NOTATION: 4, NOT_LEGAL: 1}, "g1f3") for k in range(3)])
    assert main(["audit", str(run)]) == 1
    out = capsys.readouterr().out
    assert f"flag {NOTATION_FLAG}: chess: 12 of 15 rejected answers (80%)" in out
    assert "chess, m, legal action in another notation (12): 'g1f3' x12" in out


def test_audit_flags_a_game_no_agent_is_read_in(tmp_path, capsys):
    unread = [_match(k, {NO_ACTION: 20}, "I think the best move is", game="hive") for k in range(2)]
    # an agent unreadable in every game it played (a base model echoing its prompt) says nothing of the game
    assert main(["audit", str(_run(tmp_path / "echo", unread) / "results.jsonl"), "--notation-threshold", "0.9"]) == 0
    assert "no flags" in capsys.readouterr().out
    # the same agent read in chess: the game is the likely cause
    run = _run(tmp_path / "read", [*unread, _match(9, {}, "")])
    assert main(["audit", str(run / "results.jsonl"), "--notation-threshold", "0.9"]) == 1
    assert f"flag {UNREADABLE_FLAG}: hive: every agent's answers were unreadable" in capsys.readouterr().out


def test_audit_of_clean_records_exits_0(tmp_path, capsys):
    run = _run(tmp_path, [_match(0, {NOT_LEGAL: 2}, "Ke9"), _match(1, {}, "")])
    assert main(["audit", str(run)]) == 0
    out = capsys.readouterr().out
    assert "no flags" in out and "2 (9.1%)" in out  # 2 illegal of 22 answers (20 decisions)


def test_audit_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["audit", str(tmp_path)]) == 2
    assert main(["audit", str(_run(tmp_path, [_match(0, {}, "")])), "--notation-threshold", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"stratbench audit: {tmp_path}: no results.jsonl found",
                   "stratbench audit: --notation-threshold 2.0: expected a share from 0 to 1"]


def test_the_report_shows_the_health_section(tmp_path):
    records = [_match(k, {OTHER_NOTATION: 3}, EVIL)[0] for k in range(2)]
    data = analyse(records, resamples=20)
    html = render_html(data)
    assert '<h2 id="health">Harness health</h2>' in html and 'data-flag="notation"' in html
    assert "legal action in another notation: 6" in html and EVIL not in html
    markdown = render_markdown(data)
    assert "### Harness health" in markdown and "flag notation" in markdown


def test_health_without_rejections_counts_rates_and_no_flags():
    health = harness_health([_match(0, {}, "")[0]])
    (row, engine) = health["rows"]
    assert row["agent"] == "m" and row["rates"]["illegal"] == 0.0 and health["flags"] == []
    assert engine["read"] is False and health["notes"]  # the listed actions are not checked: said so


def test_audit_checks_the_prompts_of_the_games_played_and_flags_a_misread_answer(tmp_path, capsys, monkeypatch):
    run = _run(tmp_path, [_match(0, {}, ""), _match(1, {}, "")])
    assert main(["audit", str(run)]) == 0
    assert "note: prompts checked: 1 game/protocol(s) played, 3 sampled decision(s) each" in capsys.readouterr().out
    # a reader that drops UCI, which the chess prompt names: the audit blames the harness
    from stratbench.games.spin.chess_game import ChessGame

    own = ChessGame.canonical_action

    def san_only(self, state, player, text):
        if len(text) in (4, 5) and text[1].isdigit() and text[3].isdigit():
            return None
        return own(self, state, player, text)

    monkeypatch.setattr(ChessGame, "canonical_action", san_only)
    assert main(["audit", str(run)]) == 1
    assert "flag prompt: chess/default: " in capsys.readouterr().out
