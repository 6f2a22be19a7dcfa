"""Tests for stratbench.rating.data: MatchResult and the two loaders."""

import json
from pathlib import Path

import pytest

from stratbench.rating import MatchResult, ResultsFormatError, ResultsFormatWarning, load_matches

# The repository is /work/main and the shared reference data sits beside it in ../shared.
SHARED = Path(__file__).resolve().parents[3] / "shared"
GAMEBENCH_MATCHES = SHARED / "data" / "gamebench" / "matches.json"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _jsonl(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


def _record(match_id="m1", game="chess", agents=("a", "b"), scores=(1.0, 0.0), **extra):
    return {
        "game": game,
        "match_id": match_id,
        "sides": [{"agent": a, "seat": k} for k, a in enumerate(agents)],
        "scores": list(scores),
        **extra,
    }


def test_match_result_coerces_to_tuples_of_floats():
    m = MatchResult("g", ["a", "b"], [1, 0])
    assert m.agents == ("a", "b")
    assert m.scores == (1.0, 0.0)
    assert all(isinstance(s, float) for s in m.scores)


@pytest.mark.parametrize(
    "args",
    [
        ("g", ("a", "b"), (1.0,)),
        ("", ("a", "b"), (1.0, 0.0)),
        ("g", (), ()),
        ("g", ("a", ""), (1.0, 0.0)),
        ("g", ("a", "b"), (float("nan"), 0.0)),
    ],
)
def test_match_result_rejects_inconsistent_records(args):
    with pytest.raises(ValueError):
        MatchResult(*args)


def test_loads_gamebench_array_selecting_non_game_keys(tmp_path):
    data = [
        {"game": "sea_battle", "gpt-4": 0.0, "gpt-4-cot": 1.0},
        {"human": 0.25, "game": "codenames", "gpt-4-cot": 0.75},  # "game" not first
    ]
    matches = load_matches(_write(tmp_path, "matches.json", json.dumps(data, indent=2)))
    assert matches == [
        MatchResult("sea_battle", ("gpt-4", "gpt-4-cot"), (0.0, 1.0)),
        MatchResult("codenames", ("human", "gpt-4-cot"), (0.25, 0.75)),
    ]


def test_gamebench_error_names_file_and_line(tmp_path):
    text = '[\n  {"game": "g", "a": 1, "b": 0},\n  {"a": 1, "b": 0}\n]\n'
    path = _write(tmp_path, "matches.json", text)
    with pytest.raises(ResultsFormatError, match=r"matches\.json: line 3: .*'game'"):
        load_matches(path)


def test_gamebench_rejects_non_numeric_score(tmp_path):
    path = _write(tmp_path, "m.json", '[{"game": "g", "a": "1", "b": 0}]')
    with pytest.raises(ResultsFormatError, match=r"m\.json: line 1: score of 'a'"):
        load_matches(path)


def test_gamebench_broken_json_names_line(tmp_path):
    path = _write(tmp_path, "m.json", '[\n{"game": "g", "a": 1, "b": 0},\n{"game": "g", "a": 1,\n')
    with pytest.raises(ResultsFormatError, match=r"m\.json: line \d+: not valid JSON"):
        load_matches(path)


def test_loads_results_jsonl_skipping_headers_and_unscored_lines(tmp_path):
    text = _jsonl(
        {"type": "header", "version": 1, "packages": {"choix": "0.4.1"}},
        _record("m1", extra_key={"tokens": 12}),
        {"type": "progress", "game": "chess", "match_id": "m2"},
        _record("m3", game="go", agents=("b", "c"), scores=(0.5, 0.5)),
    )
    matches = load_matches(_write(tmp_path, "results.jsonl", text))
    assert matches == [
        MatchResult("chess", ("a", "b"), (1.0, 0.0), "m1"),
        MatchResult("go", ("b", "c"), (0.5, 0.5), "m3"),
    ]


def test_jsonl_keeps_matches_with_more_sides(tmp_path):
    text = _jsonl(_record("m1", agents=("a", "b", "c"), scores=(1.0, 0.0, 0.0)))
    (match,) = load_matches(_write(tmp_path, "r.jsonl", text))
    assert match.agents == ("a", "b", "c")


def test_truncated_last_line_warns_and_keeps_earlier_lines(tmp_path):
    text = _jsonl(_record("m1"), _record("m2")) + json.dumps(_record("m3"))[:25]
    path = _write(tmp_path, "results.jsonl", text)
    with pytest.warns(ResultsFormatWarning, match=r"results\.jsonl: line 3"):
        matches = load_matches(path)
    assert [m.match_id for m in matches] == ["m1", "m2"]


def test_broken_middle_line_is_an_error(tmp_path):
    text = _jsonl(_record("m1")) + "{not json\n" + _jsonl(_record("m3"))
    path = _write(tmp_path, "results.jsonl", text)
    with pytest.raises(ResultsFormatError, match=r"results\.jsonl: line 2: not valid JSON"):
        load_matches(path)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({k: v for k, v in _record().items() if k != "sides"}, "missing key 'sides'"),
        ({k: v for k, v in _record().items() if k != "match_id"}, "missing key 'match_id'"),
        ({**_record(), "scores": [1.0]}, "one number per side"),
        ({**_record(), "sides": [{"seat": 0}, {"agent": "b"}]}, r"sides\[0\]"),
        ({**_record(), "scores": [1.0, None]}, r"scores\[1\]"),
    ],
)
def test_jsonl_bad_record_names_file_and_line(tmp_path, record, message):
    text = _jsonl(_record("m1"), record, _record("m3"))
    with pytest.raises(ResultsFormatError, match=rf"bad\.jsonl: line 2: .*{message}"):
        load_matches(_write(tmp_path, "bad.jsonl", text))


@pytest.mark.parametrize("text", ["", "  \n\n", "hello\n", "42\n"])
def test_empty_or_non_json_file_is_an_error(tmp_path, text):
    path = _write(tmp_path, "results.jsonl", text)
    with pytest.raises(ResultsFormatError, match=r"results\.jsonl: line \d+"):
        load_matches(path)


def test_format_error_is_a_value_error():
    assert issubclass(ResultsFormatError, ValueError)


@pytest.mark.skipif(not GAMEBENCH_MATCHES.exists(), reason=f"{GAMEBENCH_MATCHES} not present")
def test_loads_the_gamebench_data_set():
    matches = load_matches(GAMEBENCH_MATCHES)
    assert len(matches) == 277
    assert all(len(m.agents) == 2 and "game" not in m.agents for m in matches)
    assert sum(m.scores[0] == m.scores[1] for m in matches) == 18
