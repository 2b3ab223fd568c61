"""Read every data file, validate it against its schema, build the catalog, run the rules.

`build_catalog` is the one entry point: the check command, the site and the exports all
call it, so they all see the same data and the same problems.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import gc
import os
import re
from pathlib import Path

from macros.data.load import Document, load
from macros.data.model import (Bundled, Carrier, Catalog, Category, Channels, Engine, Fact, Feature, Gap, Kind,
                               LatestRelease, Need, Origin, Release, Requirement, Retired, SeedClaim, Source, Statement,
                               Status, Strength)
from macros.data.problems import DataError, Problem, reset_suggestions
from macros.data.schema import date_keys, load_schemas, validate

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_DIR = ROOT / "data" / "schema"  # the schemas belong to the project, whatever data is read

# What data/ holds, and which schema each file follows. Anything else under data/ is refused:
# a file nobody reads (`engines/sglang.yaml`) would look like a contribution and change nothing.
TOP_FILES = {"features.yml": "features.schema.json", "sources.yml": "sources.schema.json",
             "guide.yml": "guide.schema.json", "seed-claims.yml": "seed-claims.schema.json"}
OPTIONAL_FILES = {"seed-claims.yml"}  # a catalog without an article to check has no claims
ENGINES = "engines"
SCHEMAS = "schema"


def _is_clean(errors: set, pointer: tuple) -> bool:
    """No schema problem at `pointer`, below it, or at one of its ancestors."""
    return not any(e[: len(pointer)] == pointer or pointer[: len(e)] == e for e in errors)


def _records(data, key: str):
    """(index, mapping) for each entry of the list under `key`; nothing when it is not a list."""
    items = data.get(key) if isinstance(data, dict) else None
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)] if isinstance(items, list) else []


class _Reader:
    def __init__(self, data_dir: Path, shown_from: Path, tolerant: bool = False):
        self.data_dir = data_dir
        self.tolerant = tolerant  # keep the sound parts of a broken record (old revisions, for the diff)
        self.schema_dir = SCHEMA_DIR
        self.shown_from = shown_from
        self.date_keys = date_keys(self.schema_dir)
        self.problems: list[Problem] = []
        self.complete = True
        self.broken_ids: set[str] = set()
        self.unreadable: list[Problem] = []  # files that do not load: reported first
        self.unread: set[str] = set()  # their names under data/, so rules that need them stay quiet

    def note_broken(self, raw: dict, errors: set, pointer: tuple) -> None:
        if not _is_clean(errors, pointer) and isinstance(raw.get("id"), str):
            self.broken_ids.add(raw["id"])

    def unexpected(self) -> None:
        """Every file or folder under data/ that no reader takes, with what to rename it to."""
        for path, is_dir in _entries(self.data_dir):
            relative = path.relative_to(self.data_dir)
            if _is_read(relative, is_dir):
                continue
            self.problems.append(Problem(self.shown(path), 1, 1, *_stray_advice(relative, is_dir)))

    def shown(self, path: Path) -> str:
        try:
            # abspath, not resolve: a symbolic link is named as the link, not as its target
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(self.shown_from)).as_posix()
        except ValueError:
            return str(path)

    def read(self, path: Path, schema: str) -> tuple[Document | None, set]:
        """Load and validate one file. Returns the document (None if unusable) and its error pointers."""
        doc, problems = load(path, self.shown(path), self.date_keys)
        if problems:
            self.problems += problems
            self.unreadable += problems
            self.unread.add(path.relative_to(self.data_dir).as_posix())
            self.complete = False
            return None, set()
        doc.schema = schema
        found = validate(doc, self.schema_dir, schema)
        self.problems += [problem for _, problem in found]
        self.complete = self.complete and not found
        return doc, {pointer for pointer, _ in found}


def _entries(data_dir: Path):
    """(path, is a folder) for everything under data/, without following links into folders."""
    for folder, folders, files in os.walk(data_dir):
        for name in sorted(folders):
            yield Path(folder) / name, not (Path(folder) / name).is_symlink()
        for name in sorted(files):
            yield Path(folder) / name, False


def _is_read(relative: Path, is_dir: bool) -> bool:
    parts = relative.parts
    if parts[-1].startswith(".") and not parts[-1].lower().endswith((".yml", ".yaml", ".json")):
        return True  # an editor's swap file or a .gitkeep: never mistaken for data
    if len(parts) == 1:
        return parts[0] in TOP_FILES or (is_dir and parts[0] in (ENGINES, SCHEMAS))
    if len(parts) == 2 and parts[0] == ENGINES:
        return parts[1].endswith(".yml")  # a folder named x.yml is refused when it is read
    if len(parts) == 2 and parts[0] == SCHEMAS:
        return parts[1].endswith(".schema.json")
    return False


def _stray_advice(relative: Path, is_dir: bool) -> tuple[str, str]:
    """What is wrong with a stray file, and what to rename it to."""
    name = relative.name
    stem = name.split(".")[0]
    yaml_like = name.lower().endswith((".yml", ".yaml"))
    where = relative.parts[0] if len(relative.parts) > 1 else ""
    if is_dir:
        return "is a folder that nothing reads", "data/ holds engines/ and schema/ only: move its files there or remove it"
    if where == ENGINES and yaml_like:
        return ("is not read: engine files end in `.yml` (lowercase)",
                f"rename it to data/{ENGINES}/{stem.lower()}.yml")
    if not where and yaml_like and f"{stem.lower()}.yml" in TOP_FILES:
        return "is not read: data files end in `.yml` (lowercase)", f"rename it to data/{stem.lower()}.yml"
    if not where and yaml_like:
        return ("is not read: data/ holds " + ", ".join(TOP_FILES) + " and the engines/ and schema/ folders",
                f"an engine's file goes in data/{ENGINES}/{stem.lower()}.yml")
    return "is not read by anything", "remove it, or move it where CONTRIBUTING.md says it belongs"


_COLOUR = re.compile(r"\A#[0-9a-fA-F]{6}\Z")
_STATUS_KEYS = ("const", "title", "description", "x-icon", "x-symbol", "x-rank", "x-strength", "x-colour", "x-short-of")


def _statuses(schema_dir: Path) -> dict[str, Status]:
    """The status vocabulary, in rank order, each with its strength: the one place statuses are defined.
    A broken entry stops everything with one message naming it: every view reads this vocabulary."""
    path = "data/schema/status.schema.json"
    schema = load_schemas(schema_dir)["status.schema.json"]
    problems = []
    strengths = {}
    for sid, raw in (schema.get("x-strengths") or {}).items():
        try:
            strengths[sid] = Strength(sid, **raw)
        except TypeError as error:
            problems.append(Problem(path, 1, 1, f"strength '{sid}' is not complete: {error}",
                                    "give it label, present, known, score, tier and grid, like the others"))
    statuses = []
    for entry in schema.get("oneOf") or []:
        missing = [k for k in _STATUS_KEYS if k not in entry]
        name = entry.get("const", "?")
        if missing:
            problems.append(Problem(path, 1, 1, f"status '{name}' lacks {', '.join(missing)}",
                                    "each status gives its label, meaning, symbol, rank, strength, colours and words"))
        elif entry["x-strength"] not in strengths:
            problems.append(Problem(path, 1, 1, f"status '{name}' names strength '{entry['x-strength']}', which "
                                    "x-strengths does not define", "allowed: " + ", ".join(strengths)))
        elif not all(_COLOUR.match(str(entry["x-colour"].get(scheme, ""))) for scheme in ("light", "dark")):
            problems.append(Problem(path, 1, 1, f"status '{name}' needs x-colour light and dark as #rrggbb",
                                    'write {"light": "#1b7a3a", "dark": "#6fd48f"}'))
        else:
            statuses.append(Status(entry["const"], entry["title"], entry["x-icon"], entry["description"],
                                   entry["x-symbol"], entry["x-rank"], strengths[entry["x-strength"]],
                                   dict(entry["x-colour"]), entry["x-short-of"]))
    if problems:
        raise DataError(problems)
    return {s.id: s for s in sorted(statuses, key=lambda s: s.rank)}


def _categories(reader: _Reader) -> tuple[list[Category], list[Retired]]:
    doc, errors = reader.read(reader.data_dir / "features.yml", "features.schema.json")
    categories = []
    if doc is None:
        return categories, []
    retired = [Retired(r["id"], r["name"], r["became"], r["why"], Origin(doc, ("retired", i)))
               for i, r in _records(doc.data, "retired") if _is_clean(errors, ("retired", i))]
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
        categories.append(Category(raw["id"], raw["name"], raw["description"], features, raw.get("grid", False),
                                   Origin(doc, at)))
    return categories, retired


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
    """The engine in one file. A check drops an engine with a problem outside its statements (its
    problems are reported; what follows from it would only echo them); a tolerant read (an old
    revision, for `make diff`) keeps every part that is sound and leaves the rest empty."""
    doc, errors = reader.read(path, "engine.schema.json")
    if doc is None:
        return None
    raw = doc.data
    if not reader.tolerant and any(e[:1] != ("support",) or len(e) == 1 for e in errors):
        return None

    def sound(key, default):
        return raw[key] if key in raw and _is_clean(errors, (key,)) else default

    engine_id = sound("id", path.stem)
    support = {
        fid: Statement(engine_id, fid, st["status"], st["detail"], st["sources"], st["checked"], st.get("value", ""),
                       st.get("since", ""), st.get("basis", ""), st.get("searched", []), st.get("scope", []),
                       Origin(doc, ("support", fid)))
        for fid, st in (raw["support"].items() if isinstance(raw.get("support"), dict) else ())
        if _is_clean(errors, ("support", fid))
    }
    fields = {k: sound(k, "") for k in ("name", "summary", "homepage", "repository", "license")}
    return Engine(id=engine_id, **fields, sources=sound("sources", []), support=support, file_stem=path.stem,
                  official_urls=sound("official-urls", []), **_engine_facts(doc, errors),
                  featured=sound("featured-comparisons", []), former_ids=sound("former-ids", []),
                  origin=Origin(doc, ()))


def _release(raw: dict, doc: Document, at: tuple) -> Release:
    return Release(raw["version"], raw.get("date", ""), raw.get("sources", []), raw.get("pre-release", False),
                   Origin(doc, at))


def _engine_facts(doc: Document, errors: set) -> dict:
    """The facts about an engine beside its statements, each one only when it is sound:
    maintenance, kind, release channels, releases."""
    raw, facts = doc.data, {}

    def sound(key):
        return key in raw and _is_clean(errors, (key,))

    if sound("maintenance"):
        m = raw["maintenance"]
        facts["maintenance"] = Fact(m["status"], m["detail"], m["sources"], origin=Origin(doc, ("maintenance",)))
    if sound("kind"):
        k = raw["kind"]
        facts["kind"] = Kind(k["value"], k["detail"], k["sources"],
                             [Bundled(p["engine"], p.get("version", "")) for p in k.get("packages", [])],
                             Origin(doc, ("kind",)))
    if sound("releases"):
        r = raw["releases"]
        facts["releases"] = Channels(r.get("pypi", []), r.get("github", ""), Origin(doc, ("releases",)))
    if sound("latest-release"):
        r = raw["latest-release"]
        pre = r.get("pre-release")
        facts["latest_release"] = LatestRelease(
            _release(r["stable"], doc, ("latest-release", "stable")),
            _release(pre, doc, ("latest-release", "pre-release")) if pre else None, Origin(doc, ("latest-release",)))
    if sound("release-history"):
        facts["release_history"] = [_release(item, doc, ("release-history", i))
                                    for i, item in enumerate(raw["release-history"])]
    return facts


def _guide(reader: _Reader) -> tuple[list[Need], list[Gap], dict]:
    path = reader.data_dir / "guide.yml"
    doc, errors = reader.read(path, "guide.schema.json")
    if doc is None:
        return [], [], {}
    needs = []
    for i, raw in _records(doc.data, "needs"):
        at = ("needs", i)
        if _is_clean(errors, at):
            requires = [Requirement(r["feature"], r["statuses"], Origin(doc, at + ("requires", j)))
                        for j, r in enumerate(raw["requires"])]
            needs.append(Need(raw["id"], raw["label"], raw["why"], raw.get("match", "all"), requires,
                              raw.get("for", []), Origin(doc, at)))
    gaps = [Gap(g["feature"], g["supply"], Origin(doc, ("build-yourself", i)))
            for i, g in _records(doc.data, "build-yourself")
            if _is_clean(errors, ("build-yourself", i))]
    interfaces = doc.data.get("interfaces") if _is_clean(errors, ("interfaces",)) else None
    return needs, gaps, dict(interfaces or {})


def _seed_claims(reader: _Reader) -> tuple[list[SeedClaim], str]:
    path = reader.data_dir / "seed-claims.yml"
    if not path.exists() and not path.is_symlink():
        return [], ""
    doc, errors = reader.read(path, "seed-claims.schema.json")
    if doc is None or not _is_clean(errors, ("source",)):
        return [], ""
    claims = []
    for pi, paragraph in _records(doc.data, "paragraphs"):
        for ci, raw in _records(paragraph, "claims"):
            at = ("paragraphs", pi, "claims", ci)
            if _is_clean(errors, at):
                carried = [Carrier(c["engine"], c["feature"], c["implies"], Origin(doc, at + ("carried-by", k)))
                           for k, c in enumerate(raw["carried-by"])]
                claims.append(SeedClaim(raw["id"], pi, raw["text"], raw["verdict"], carried, raw.get("refines", ""),
                                        Origin(doc, at)))
    return claims, doc.data["source"]


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while the data loads: loading makes tens of thousands of
    records that all live on, and no cycles to free (what it throws away goes with its last reference),
    yet each full pass of the collector walks every record made so far: over a quarter of a cold
    `make check` at 50 engines x 300 features. It is on again afterwards, as it was before, with what
    the load made in the collector's oldest generation (see _move_to_oldest_generation)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            _move_to_oldest_generation()
            gc.enable()


def _move_to_oldest_generation() -> None:
    """Move every object the collector tracks into its oldest generation, without walking any. Made
    while the collector was off, the records are all still young: the first young collection after
    the load would walk every one of them to find them alive (0.1 s at 50 x 300). Freezing and then
    unfreezing only moves lists (CPython's gc_freeze and gc_unfreeze), and leaves them to the full
    collections, as if they had survived the young ones. Not when objects are frozen already (a build
    freezes what lives as long as it, macros/site/hooks.py): unfreezing would let those go too."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


@collector_paused()
def read_catalog(data_dir: Path = ROOT / "data", shown_from: Path | None = None,
                 tolerant: bool = False) -> tuple[Catalog, list[Problem]]:
    """Load every data file into a Catalog, and every load and schema problem met on the way.

    The one loader: the check, the build, the downloads, `make diff` and the feed all read data
    through it. `tolerant` is for data of an old revision, which follows older schemas: every
    sound part of a record is kept, so a diff shows what changed rather than what no longer fits."""
    data_dir = Path(data_dir)
    reader = _Reader(data_dir, shown_from or data_dir.parent, tolerant)
    reader.unexpected()
    categories, retired = _categories(reader)
    source_list = _sources(reader)
    engines = [e for e in (_engine(reader, p) for p in sorted((data_dir / "engines").glob("*.yml"))) if e]
    needs, gaps, interfaces = _guide(reader)
    seed_claims, seed_source = _seed_claims(reader)
    sources: dict[str, Source] = {}
    for source in source_list:
        sources.setdefault(source.id, source)
    by_id: dict[str, Engine] = {}
    for engine in sorted(engines, key=lambda e: e.id):
        by_id.setdefault(engine.id, engine)
    catalog = Catalog(
        statuses=_statuses(reader.schema_dir), categories=categories, sources=sources, engines=by_id,
        needs=[n for i, n in enumerate(needs) if n.id not in {m.id for m in needs[:i]}], gaps=gaps,
        seed_claims=seed_claims, seed_source=seed_source, retired=retired, interfaces=interfaces,
        source_list=source_list, need_list=needs, complete=reader.complete, broken_ids=reader.broken_ids,
        unread=reader.unread, unreadable=reader.unreadable,
    )
    return catalog, reader.problems


@collector_paused()
def build_catalog(data_dir: Path = ROOT / "data", today: dt.date | None = None,
                  shown_from: Path | None = None) -> Catalog:
    """The checked catalog. Raises DataError with every problem when there is any."""
    from macros.data.rules import latest_today_on_earth, run_rules

    reset_suggestions()
    catalog, problems = read_catalog(data_dir, shown_from)
    problems += run_rules(catalog, today or latest_today_on_earth())
    if problems:
        raise DataError(problems, first=catalog.unreadable)
    return catalog
