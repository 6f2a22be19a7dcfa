"""How a report table is laid out: its key columns first, its secondary columns in a folded detail table.

A section's table (see :func:`stratbench.report.render.section_tables`) may
name its layout beside its ``columns`` and ``rows``, which stay as they are
in results.json:

- ``label_columns``: the columns that name a row (agent, game, renaming);
  they open both tables, so a detail row can be read without its headline row.
- ``key_columns``: the headline numbers (score, Δ and its interval, cost in
  USD), shown right after the labels.

The headline table holds the labels and the key columns; every other column
goes to the detail table, which ``report.html`` folds (``<details>``) and
``report.md`` prints below the headline table in a ``<details>`` block. No
column is dropped. A table without ``key_columns`` is one table whose first
column is its key column.
"""

from __future__ import annotations

from typing import Any

__all__ = ["table_view"]


def _pick(rows: list[list[Any]], indexes: list[int]) -> list[list[Any]]:
    return [[row[k] for k in indexes] for row in rows]


def table_view(table: dict[str, Any]) -> dict[str, Any]:
    """Lays a section table out for the page: ``{"title", "note", "chart", "columns", "rows", "labels", "key",
    "detail"}``.

    ``labels`` is how many leading columns name a row (text, set left); ``key`` flags each shown column that
    is a key column (a label or a headline number); ``detail`` is ``{"columns", "rows", "labels", "summary"}``
    for the secondary columns, or None when the table has none.

    Raises:
        ValueError: a layout column that is not one of the table's columns.
    """
    columns, rows = list(table.get("columns") or []), list(table.get("rows") or [])
    view = {"title": table.get("title"), "note": table.get("note"), "chart": table.get("chart")}
    headline = list(table.get("key_columns") or [])
    if not headline or not columns:
        return {**view, "columns": columns, "rows": rows, "labels": 1, "key": [k == 0 for k in range(len(columns))],
                "detail": None}
    labels = list(table.get("label_columns") or columns[:1])
    unknown = [name for name in (*labels, *headline) if name not in columns]
    if unknown:
        raise ValueError(f"layout columns {unknown} are not among the table's columns {columns}")
    shown = labels + [name for name in headline if name not in labels]
    rest = [name for name in columns if name not in shown]
    index = {name: k for k, name in enumerate(columns)}
    view.update(columns=shown, rows=_pick(rows, [index[name] for name in shown]), labels=len(labels),
                key=[True] * len(shown), detail=None)
    if rest:
        detail = labels + rest
        view["detail"] = {"columns": detail, "rows": _pick(rows, [index[name] for name in detail]),
                          "labels": len(labels), "summary": "More columns: " + ", ".join(rest)}
    return view
