"""Read every data file, validate it against its schema, build the catalog, run the rules.

`build_catalog` is the one entry point: the check command, the site and the exports all
call it, so they all see the same data and the same problems.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from macros.data.load import Document, load
from macros.data.model import Catalog, Category, Engine, Feature, Gap, Need, Origin, Requirement, Source, Statement, Status
from macros.data.problems import DataError, Problem
from macros.data.schema import date_keys, load_schemas, validate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DIR = ROOT / "data" / "schema"  # the schemas belong to the project, whatever data is read


def _is_clean(errors: set, pointer: tuple) -> bool:
    """No schema problem at `pointer`, below it, or at one of its ancestors."""
    return not any(e[: len(pointer)] == pointer or pointer[: len(e)] == e for e in errors)


def _records(data, key: str):
    """(index, mapping) for each entry of the list under `key`; nothing when it is not a list."""
    items = data.get(key) if isinstance(data, dict) else None
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)] if isinstance(items, list) else []


class _Reader:
    def __init__(self, data_dir: Path, shown_from: Path):
        self.data_dir = data_dir
        self.schema_dir = SCHEMA_DIR
        self.shown_from = shown_from
        self.date_keys = date_keys(self.schema_dir)
        self.problems: list[Problem] = []
        self.complete = True
        self.broken_ids: set[str] = set()

    def note_broken(self, raw: dict, errors: set, pointer: tuple) -> None:
        if not _is_clean(errors, pointer) and isinstance(raw.get("id"), str):
            self.broken_ids.add(raw["id"])

    def shown(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.shown_from.resolve()))
        except ValueError:
            return str(path)

    def read(self, path: Path, schema: str) -> tuple[Document | None, set]:
        """Load and validate one file. Returns the document (None if unusable) and its error pointers."""
        doc, problems = load(path, self.shown(path), self.date_keys)
        if problems:
            self.problems += problems
            self.complete = False
            return None, set()
        doc.schema = schema
        found = validate(doc, self.schema_dir, schema)
        self.problems += [problem for _, problem in found]
        self.complete = self.complete and not found
        return doc, {pointer for pointer, _ in found}


def _statuses(schema_dir: Path) -> dict[str, Status]:
    vocabulary = load_schemas(schema_dir)["status.schema.json"]["oneOf"]
    return {s["const"]: Status(s["const"], s["title"], s["x-icon"], s["description"]) for s in vocabulary}


def _categories(reader: _Reader) -> list[Category]:
    doc, errors = reader.read(reader.data_dir / "features.yml", "features.schema.json")
    categories = []
    if doc is None:
        return categories
    for ci, raw in _records(doc.data, "categories"):
        at = ("categories", ci)
        for fi, f in _records(raw, "features"):
            reader.note_broken(f, errors, at + ("features", fi))
        heading = ("id", "name", "description")
        if not all(_is_clean(errors, at + (k,)) for k in heading):
            continue
        features = [
            Feature(f["id"], f["name"], f["description"], raw["id"], f.get("former-ids", []), Origin(doc, at + ("features", fi)))
            for fi, f in _records(raw, "features")
            if _is_clean(errors, at + ("features", fi))
        ]
        categories.append(Category(raw["id"], raw["name"], raw["description"], features, Origin(doc, at)))
    return categories


def _sources(reader: _Reader) -> list[Source]:
    doc, errors = reader.read(reader.data_dir / "sources.yml", "sources.schema.json")
    if doc is None:
        return []
    for i, raw in _records(doc.data, "sources"):
        reader.note_broken(raw, errors, ("sources", i))
    return [
        Source(**raw, origin=Origin(doc, ("sources", i)))
        for i, raw in _records(doc.data, "sources")
        if _is_clean(errors, ("sources", i))
    ]


def _engine(reader: _Reader, path: Path) -> Engine | None:
    doc, errors = reader.read(path, "engine.schema.json")
    if doc is None:
        return None
    raw = doc.data
    if any(e[:1] != ("support",) or len(e) == 1 for e in errors):
        return None
    support = {
        fid: Statement(raw["id"], fid, s["status"], s["detail"], s["sources"], s["checked"], s.get("value", ""),
                       Origin(doc, ("support", fid)))
        for fid, s in raw["support"].items()
        if _is_clean(errors, ("support", fid))
    }
    fields = {k: raw[k] for k in ("id", "name", "summary", "homepage", "repository", "license", "sources")}
    return Engine(**fields, support=support, file_stem=path.stem, former_ids=raw.get("former-ids", []),
                  origin=Origin(doc, ()))


def _guide(reader: _Reader) -> tuple[list[Need], list[Gap]]:
    path = reader.data_dir / "guide.yml"
    doc, errors = reader.read(path, "guide.schema.json")
    if doc is None:
        return [], []
    needs = []
    for i, raw in _records(doc.data, "needs"):
        at = ("needs", i)
        if _is_clean(errors, at):
            requires = [Requirement(r["feature"], r["statuses"], Origin(doc, at + ("requires", j)))
                        for j, r in enumerate(raw["requires"])]
            needs.append(Need(raw["id"], raw["label"], raw["why"], raw.get("match", "all"), requires, Origin(doc, at)))
    gaps = [Gap(g["feature"], g["supply"], Origin(doc, ("build-yourself", i)))
            for i, g in _records(doc.data, "build-yourself")
            if _is_clean(errors, ("build-yourself", i))]
    return needs, gaps


def read_catalog(data_dir: Path = ROOT / "data", shown_from: Path | None = None) -> tuple[Catalog, list[Problem]]:
    """Load every data file into a Catalog, and every load and schema problem met on the way."""
    data_dir = Path(data_dir)
    reader = _Reader(data_dir, shown_from or data_dir.parent)
    categories = _categories(reader)
    source_list = _sources(reader)
    engines = [e for e in (_engine(reader, p) for p in sorted((data_dir / "engines").glob("*.yml"))) if e]
    needs, gaps = _guide(reader)
    sources: dict[str, Source] = {}
    for source in source_list:
        sources.setdefault(source.id, source)
    by_id: dict[str, Engine] = {}
    for engine in sorted(engines, key=lambda e: e.id):
        by_id.setdefault(engine.id, engine)
    catalog = Catalog(
        statuses=_statuses(reader.schema_dir), categories=categories, sources=sources, engines=by_id,
        needs=[n for i, n in enumerate(needs) if n.id not in {m.id for m in needs[:i]}], gaps=gaps,
        source_list=source_list, need_list=needs, complete=reader.complete, broken_ids=reader.broken_ids,
    )
    return catalog, reader.problems


def build_catalog(data_dir: Path = ROOT / "data", today: dt.date | None = None,
                  shown_from: Path | None = None) -> Catalog:
    """The checked catalog. Raises DataError with every problem when there is any."""
    from macros.data.rules import run_rules

    catalog, problems = read_catalog(data_dir, shown_from)
    problems += run_rules(catalog, today or dt.date.today())
    if problems:
        raise DataError(problems)
    return catalog
