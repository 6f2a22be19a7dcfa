"""The JSON Schema of the match record, generated from :class:`~stratbench.match.record.MatchRecord`.

The committed copy is ``docs/match-record.schema.json``; after changing the
record, regenerate it with::

    python -m stratbench.match.record_schema > docs/match-record.schema.json

Each field's description is its line in the class docstring's ``Attributes``.
"""

from __future__ import annotations

import inspect
import json
import re
import types
import typing
from dataclasses import fields, is_dataclass
from typing import Any, Literal, Union

from stratbench.match.record import (
    ALWAYS,
    RECORD_VERSION,
    SCORED,
    SCORED_ONLY,
    UNSCORED_ONLY,
    MatchRecord,
    required_fields,
    stored_types,
)

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def record_schema() -> dict[str, Any]:
    """Returns the JSON Schema a stored match record of :data:`RECORD_VERSION` satisfies."""
    definitions: dict[str, Any] = {}
    root = _object_schema(MatchRecord, definitions)
    root["properties"]["version"] = {**root["properties"]["version"], "minimum": 1,
                                            "maximum": RECORD_VERSION}
    only = {item.name: item.metadata.get("only", ALWAYS) for item in fields(MatchRecord)}
    scored_only = [name for name, when in only.items() if when == SCORED_ONLY]
    unscored_only = [name for name, when in only.items() if when == UNSCORED_ONLY]
    root["if"] = {"properties": {"status": {"const": SCORED}}}
    root["then"] = {"required": [n for n in required_fields(MatchRecord, SCORED) if n in scored_only],
                    "properties": {name: False for name in unscored_only}}
    root["else"] = {"required": [n for n in required_fields(MatchRecord, "skipped") if n in unscored_only],
                    "properties": {name: False for name in scored_only}}
    return {
        "$schema": SCHEMA_DIALECT,
        "title": f"stratbench match record, version {RECORD_VERSION}",
        **root,
        "$defs": dict(sorted(definitions.items())),
    }


def _object_schema(cls: type, definitions: dict[str, Any]) -> dict[str, Any]:
    described = _attribute_lines(cls)
    properties = {}
    for name, hint in stored_types(cls).items():
        schema = _type_schema(hint, definitions)
        if name in described:
            schema = {"description": described[name], **schema}
        properties[name] = schema
    summary = (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ")
    return {"description": summary, "type": "object", "properties": properties,
            "required": required_fields(cls), "additionalProperties": False}


def _type_schema(hint: Any, definitions: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if hint is Any:
        return {}
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    if origin in (Union, types.UnionType):
        arms = typing.get_args(hint)
        if all(arm in _SCALARS for arm in arms):
            return {"type": [_SCALARS[arm] for arm in arms]}
        return {"anyOf": [_type_schema(arm, definitions) for arm in arms]}
    if origin is Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin is tuple:
        return {"type": "array", "items": _type_schema(typing.get_args(hint)[0], definitions)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type_schema(typing.get_args(hint)[1], definitions)}
    if is_dataclass(hint) and isinstance(hint, type):
        name = hint.__name__
        if name not in definitions:
            definitions[name] = {}  # a placeholder while its own fields are described
            definitions[name] = _object_schema(hint, definitions)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _attribute_lines(cls: type) -> dict[str, str]:
    """Returns each attribute's description from the ``Attributes:`` section of a class docstring."""
    doc = inspect.getdoc(cls) or ""
    if "Attributes:" not in doc:
        return {}
    found: dict[str, str] = {}
    name = None
    for line in doc.split("Attributes:", 1)[1].splitlines():
        match = re.match(r"    (\w+): (.*)", line)
        if match:
            name, text = match.groups()
            found[name] = text
        elif name is not None and line.startswith("        "):
            found[name] += " " + line.strip()
        elif line.strip():
            break
    return found


def schema_text() -> str:
    """Returns the schema as committed: indented JSON with a final newline."""
    return json.dumps(record_schema(), indent=2) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
