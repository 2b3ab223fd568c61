"""JSON Schema validation of loaded documents, with messages a contributor can act on."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from macros.data.load import Document, read_regular
from macros.data.problems import DataError, Problem, did_you_mean

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

UNKNOWN_FIELDS_SHOWN = 20  # per mapping; a file of thousands of stray keys gets a count, not a flood
KEBAB = "\\A[a-z0-9]+(-[a-z0-9]+)*\\Z"  # the id pattern, as _anchored reads it
_TYPE_NAMES = {"string": "text", "array": "a list", "object": "a mapping of keys to values", "boolean": "true or false"}


def _type_name(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if value is None:
        return "nothing (an empty value)"
    return {str: "text", list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def _anchored(schema):
    r"""The schema with `^...$` patterns read as `\A...\Z`: in Python, `$` also matches before a
    final newline, so `"id\n"` would pass as an id. The files keep `^...$`, which editors read."""
    if isinstance(schema, dict):
        pattern = schema.get("pattern")
        anchored = {k: _anchored(v) for k, v in schema.items()}
        if isinstance(pattern, str) and pattern.startswith("^") and pattern.endswith("$"):
            anchored["pattern"] = "\\A" + pattern[1:-1] + "\\Z"
        return anchored
    if isinstance(schema, list):
        return [_anchored(v) for v in schema]
    return schema


def _read_schema(path: Path) -> dict:
    raw, problems = read_regular(path, str(path))
    try:
        if raw is not None:
            return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        problems = [Problem(str(path), getattr(error, "lineno", 1), getattr(error, "colno", 1),
                            f"is not valid JSON: {error}", "schemas are JSON: check the line")]
    raise DataError(problems)


@lru_cache(maxsize=8)
def _schemas(schema_dir: str) -> dict:
    return {p.name: _anchored(_read_schema(p)) for p in sorted(Path(schema_dir).glob("*.schema.json"))}


def load_schemas(schema_dir: Path) -> dict:
    return _schemas(str(schema_dir))


def date_keys(schema_dir: Path) -> frozenset:
    """Keys whose schema says they hold a date: there an unquoted date is expected."""
    keys = set()

    def walk(node):
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if isinstance(sub, dict) and sub.get("format") == "date":
                    keys.add(key)
            for sub in node.values():
                walk(sub)
        elif isinstance(node, list):
            for sub in node:
                walk(sub)

    walk(load_schemas(schema_dir))
    return frozenset(keys)


@lru_cache(maxsize=32)
def _validator(schema_dir: str, name: str) -> Draft202012Validator:
    """jsonschema's validator, which explains each problem; imported only for a file that has one
    (valid data never needs it, and importing it took a tenth of a second of every check and build)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    schemas = _schemas(schema_dir)
    registry = Registry().with_resources((file, Resource.from_contents(s)) for file, s in schemas.items())
    return Draft202012Validator(schemas[name], registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _expected(description: str) -> str:
    """A field's description as the tip for a value it refuses: what the value should be."""
    what = description.removeprefix("Optional: ")
    return f"expected {what[:1].lower()}{what[1:]}" if what else ""


def _explain(error, doc: Document) -> Problem:
    pointer = tuple(error.absolute_path)
    value, schema, kind = error.instance, error.schema, error.validator
    field = next((str(p) for p in reversed(pointer) if isinstance(p, str)), "value")
    about = schema.get("description", "")
    if kind == "required":
        missing = error.message.split("'")[1]
        sub = schema.get("properties", {}).get(missing, {})
        return doc.problem(pointer, f"missing required field '{missing}'", sub.get("description", ""), key=True)
    if kind == "additionalProperties":
        allowed = schema.get("properties", {})
        extras = [k for k in value if k not in allowed]
        problems = [doc.problem(pointer + (k,), f"unknown field '{k}'", did_you_mean(k, allowed, "field"), key=True)
                    for k in extras[:UNKNOWN_FIELDS_SHOWN]]
        if len(extras) > UNKNOWN_FIELDS_SHOWN:
            problems.append(doc.problem(pointer, f"and {len(extras) - UNKNOWN_FIELDS_SHOWN} more unknown fields here",
                                        "allowed: " + ", ".join(allowed), key=True))
        return problems
    if kind in ("enum", "oneOf", "const") and isinstance(value, str):
        choices = schema.get("enum") or [s.get("const") for s in schema.get("oneOf", []) if "const" in s]
        noun = (schema.get("title") or field).lower()
        return doc.problem(pointer, f"unknown {noun} '{value}'", did_you_mean(value, choices))
    if kind == "type":
        return doc.problem(pointer, f"'{field}' should be {_TYPE_NAMES.get(schema['type'], schema['type'])}, "
                                    f"found {_type_name(value)}", about)
    if kind == "pattern":
        if "https" in schema["pattern"]:
            return doc.problem(pointer, f"'{value}' is not an https:// URL", "use the https:// address of the page")
        if "[0-9]{4}-" in schema["pattern"]:
            return doc.problem(pointer, f"'{value}' is not a date in YYYY-MM-DD form", "write it like 2026-11-29")
        if schema["pattern"] == KEBAB:
            return doc.problem(pointer, f"'{value}' is not a kebab-case id", "use lowercase letters, digits and single hyphens: 'prefix-caching'")
        return doc.problem(pointer, f"'{value}' is not a valid '{field}'", _expected(about))
    if kind == "format" and schema.get("format") == "date":
        return doc.problem(pointer, f"'{value}' is not a real date", "check the month and the day")
    if kind in ("minItems", "minLength"):
        return doc.problem(pointer, f"'{field}' is empty", about)
    if kind == "maxLength":
        return doc.problem(pointer, f"'{field}' is longer than {schema['maxLength']} characters",
                           "keep `value` to a few words; put the rest in `detail`")
    if kind == "uniqueItems":
        return doc.problem(pointer, f"'{field}' lists the same item twice", "remove the repeat")
    return doc.problem(pointer, error.message, about)


def resolve(schema, schemas: dict, root: dict) -> tuple[dict, dict]:
    """(what a `$ref` names, the file it is in): a sibling file's schema, or one of the `#/$defs/...`
    of `root`, the file the reference is in. Anything else comes back as it is."""
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if ref.startswith("#/$defs/"):
            schema = root["$defs"][ref.removeprefix("#/$defs/")]
        else:
            schema = root = schemas[ref]
    return schema, root


def _inline(schema, schemas: dict, root: dict | None = None):
    """The schema with every `$ref` replaced by what it names."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target, root = resolve(schema, schemas, root)
            return _inline(target, schemas, root)
        if all("const" in option for option in schema.get("oneOf", [{}])):
            # a vocabulary of constants: the same as an enum, and far cheaper to check
            schema = {**{k: v for k, v in schema.items() if k != "oneOf"}, "enum": [o["const"] for o in schema["oneOf"]]}
        return {k: _inline(v, schemas, root or schema) for k, v in schema.items() if k not in ("$schema", "$defs")}
    if isinstance(schema, list):
        return [_inline(v, schemas, root) for v in schema]
    return schema


@lru_cache(maxsize=32)
def _fast_check(schema_dir: str, name: str):
    """A compiled yes/no validator: most files are valid, and this answers in a fraction of the
    time; only a file it rejects goes through jsonschema, which explains every problem."""
    import fastjsonschema

    schemas = _schemas(schema_dir)
    return fastjsonschema.compile(_inline(schemas[name], schemas), formats={"date": _is_date, "uri": lambda _: True})


def _is_date(value: str) -> bool:
    import datetime as dt

    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def validate(doc: Document, schema_dir: Path, schema_name: str) -> list[tuple[tuple, Problem]]:
    """Every schema problem in `doc` with the pointer it sits at (the most precise error of each)."""
    import fastjsonschema

    try:
        _fast_check(str(schema_dir), schema_name)(doc.data)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
    validator = _validator(str(schema_dir), schema_name)
    problems = []
    for error in validator.iter_errors(doc.data):
        # a oneOf/anyOf failure carries its reasons; report the most specific one
        while error.context and error.validator != "oneOf":
            error = min(error.context, key=lambda e: -len(e.absolute_path))
        explained = _explain(error, doc)
        pointer = tuple(error.absolute_path)
        if error.validator == "required":  # the field that is missing, not the whole record around it
            pointer += (error.message.split("'")[1],)
        elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = error.schema.get("properties", {})
            pointer += (next((k for k in error.instance if k not in allowed), ""),)
        problems += [(pointer, p) for p in (explained if isinstance(explained, list) else [explained])]
    return problems
