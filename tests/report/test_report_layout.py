"""Wide tables laid out key columns first: the headline table and its folded detail keep every cell, and
report.md shows the same tables as report.html."""

from __future__ import annotations

import html
import re

import pytest
from report_records import WIDE_AGENTS, wide_run
from stratbench.report.analysis import analyse
from stratbench.report.layout import table_view
from stratbench.report.memorisation import memorisation
from stratbench.report.model_cost import model_cost
from stratbench.report.render import render_html, render_markdown
from stratbench.report.scaffolds import scaffolds

TABLE = {"title": "t", "note": None, "columns": ["agent", "game", "matches", "Δ", "interval", "calls"],
         "rows": [["a", "g1", 3, 0.5, "[0.1, 0.9]", 1.0], ["b", "g2", 4, None, None, 2.0]],
         "label_columns": ["agent", "game"], "key_columns": ["Δ", "interval"]}


def test_a_laid_out_table_puts_labels_and_key_columns_first_and_folds_the_rest():
    view = table_view(TABLE)
    assert view["columns"] == ["agent", "game", "Δ", "interval"] and view["key"] == [True] * 4
    assert view["rows"] == [["a", "g1", 0.5, "[0.1, 0.9]"], ["b", "g2", None, None]]
    assert view["labels"] == 2
    assert view["detail"] == {"columns": ["agent", "game", "matches", "calls"], "labels": 2,
                              "rows": [["a", "g1", 3, 1.0], ["b", "g2", 4, 2.0]],
                              "summary": "More columns: matches, calls"}
    for k, row in enumerate(TABLE["rows"]):  # every cell kept, in one of the two tables
        shown = dict(zip(view["columns"], view["rows"][k])) | dict(zip(view["detail"]["columns"],
                                                                        view["detail"]["rows"][k]))
        assert shown == dict(zip(TABLE["columns"], row))


def test_a_table_without_key_columns_is_shown_as_it_is():
    plain = {key: value for key, value in TABLE.items() if not key.endswith("_columns")}
    view = table_view(plain)
    assert (view["columns"], view["rows"], view["detail"]) == (plain["columns"], plain["rows"], None)
    assert view["key"] == [True, False, False, False, False, False] and view["labels"] == 1
    with pytest.raises(ValueError, match="not among the table's columns"):
        table_view({**TABLE, "key_columns": ["Δ", "verdict"]})


def _html_tables(page: str) -> list[list[list[str]]]:
    return [[[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
             for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)]
            for table in re.findall(r"<table[^>]*>(.*?)</table>", page, re.DOTALL)]


def _markdown_tables(text: str) -> list[list[list[str]]]:
    tables, rows = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            if not line.startswith("|---"):
                rows.append(line[2:-2].split(" | "))
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def test_markdown_shows_the_tables_of_the_html_report_headline_and_detail_alike():
    data = analyse(wide_run(seeds=3), resamples=20,
                   sections={"memorisation": memorisation, "model_cost": model_cost, "scaffolds": scaffolds})
    page, markdown = render_html(data), render_markdown(data)
    overview = (page[page.index('id="models"'):page.index('id="ratings"')],
                markdown[markdown.index("### Models at a glance"):markdown.index("### Ratings")])
    first = data["sections"][0]["title"]
    sections = (page[page.index('id="section-'):page.index('id="matches"')],
                markdown[markdown.index(f"### {first}"):])
    for part, text in (overview, sections):
        assert _html_tables(part) == _markdown_tables(text)
    assert markdown.count("<details><summary>More columns: ") == page.count('<details class="more">') == 9
    headline = _markdown_tables(sections[1])[0]
    assert headline[0] == ["agent", "game", "renaming", "mean score", "Δ renamed − original", "95% interval",
                           "verdict"]
    assert {row[0] for row in headline[1:]} == set(WIDE_AGENTS)
