"""One key order for every data file, read from the schemas: the order of `properties`,
and for an engine's `support`, the order of data/features.yml. Small diffs, easy reviews.

`mapping_orders` walks a document beside its schema; the `canonical_order` rule uses it to
point at a mapping out of order, and `make fmt` uses it to rewrite files (with ruamel.yaml,
which keeps comments and quoting).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from macros.data.schema import load_schemas, resolve


@dataclass(frozen=True)
class LeftKey:
    """A key `make fmt` left where it was: the order of its mapping does not know it."""
    pointer: tuple  # the mapping's
    key: str
    line: int  # 1-based
    col: int
    known: tuple  # the keys the mapping may hold, in order

    @property
    def is_feature(self) -> bool:
        return self.pointer[-1:] == ("support",)


def mapping_orders(data, schema_name: str, schema_dir: Path, feature_order: list[str]):
    """Yield (pointer, mapping, expected key order) for every mapping in `data`."""
    schemas = load_schemas(schema_dir)

    def walk(node, schema, pointer, root):
        schema, root = resolve(schema, schemas, root)
        schema = schema if isinstance(schema, dict) else {}
        if isinstance(node, dict):
            properties = schema.get("properties", {})
            if properties:
                yield pointer, node, list(properties)
            elif pointer[-1:] == ("support",):
                yield pointer, node, feature_order
            extra = schema.get("additionalProperties")
            for key, value in node.items():
                sub = properties.get(key, extra if isinstance(extra, dict) else None)
                if sub is not None and isinstance(value, dict | list):  # a scalar holds no mapping
                    yield from walk(value, sub, pointer + (key,), root)
        elif isinstance(node, list) and isinstance(schema.get("items"), dict):
            for index, item in enumerate(node):
                if isinstance(item, dict | list):
                    yield from walk(item, schema["items"], pointer + (index,), root)

    yield from walk(data, schemas[schema_name], (), schemas[schema_name])


def canonical_keys(keys, order: list[str]) -> list:
    """Keys in the expected order; a key the order does not know (a typo) keeps its place."""
    rank = {key: i for i, key in enumerate(order)}
    known = iter(sorted((k for k in keys if k in rank), key=rank.__getitem__))
    return [next(known) if k in rank else k for k in keys]


def unknown_keys(keys, order: list[str]) -> list:
    """The keys the order does not know: `make fmt` leaves them where they are, and says so."""
    known = set(order)
    return [k for k in keys if k not in known]


def round_trip_yaml():
    """The ruamel.yaml reader and writer every tool that rewrites data uses (`make fmt`,
    `make refresh --write`): comments, quoting and flow style kept, lines never wrapped."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = sys.maxsize  # a long note stays one line: any finite width folds a longer one
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def dump(yaml, data) -> str:
    from io import StringIO

    out = StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def write_in_place(path: Path, text: str) -> None:
    """Overwrite a data file, never through a symbolic link (a link could point anywhere)."""
    import os

    descriptor = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def reorder_file(path: Path, before: str, schema_name: str, schema_dir: Path,
                 feature_order: list[str]) -> tuple[bool, list[LeftKey]]:
    """Rewrite one file (whose text is `before`) in canonical key order, keeping comments. Returns
    whether it changed, and the keys it left in place. Never writes through a symbolic link."""
    yaml = round_trip_yaml()
    data = yaml.load(before)
    left = []
    for pointer, mapping, order in mapping_orders(data, schema_name, schema_dir, feature_order):
        for key in unknown_keys(list(mapping), order):
            line, col = mapping.lc.key(key)
            left.append(LeftKey(pointer, str(key), line + 1, col + 1, tuple(order)))
        for key in canonical_keys(list(mapping), order):
            mapping.move_to_end(key)
    after = dump(yaml, data)
    if after == before:
        return False, left
    write_in_place(path, after)
    return True, left
