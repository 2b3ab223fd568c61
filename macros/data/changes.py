"""The data change of a pull request in plain words, for a reviewer (`python -m macros diff REV`)
and for the feed of data changes.

Compares the catalog at a git revision with another and writes Markdown: engines and features
added or removed, each statement whose status, value, detail or sources changed, and sources
added, removed or re-checked. A status raised without a new or re-checked primary source is
flagged for the reviewer, with the quote its sources carry.

Old revisions follow older schemas: they are read tolerantly, taking whatever fields are there.
"""
from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

from macros.data.load import load
from macros.data.model import Catalog, Category, Engine, Feature, Source, Statement
from macros.data.problems import printable

# A status counts as raised when it moves up this order: a reviewer wants the evidence for it.
STRENGTH = {"unknown": 0, "not-researched": 0, "not-supported": 0, "experimental": 1, "via-plugin": 1, "partial": 1,
            "documented": 2, "supported": 2}


class RevisionError(Exception):
    pass


def git_output(root: Path, *args: str) -> str | None:
    """What `git ARGS` prints in `root`, or None when git fails or is missing (outside a checkout)."""
    try:
        result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout if result.returncode == 0 else None


def _git(cwd: Path, *args: str) -> bytes:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    if result.returncode != 0:
        raise RevisionError(result.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return result.stdout


def catalog_at(revision: str, data_dir: Path) -> Catalog:
    """The catalog as it was at `revision`, read tolerantly: a reviewer wants the change, and an
    old revision need not follow today's schemas."""
    data_dir = Path(data_dir).resolve()
    top = Path(_git(data_dir, "rev-parse", "--show-toplevel").decode().strip())
    inside = data_dir.relative_to(top).as_posix()
    archive = _git(top, "archive", "--format=tar", revision, inside)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        return tolerant_catalog(Path(tmp) / inside)


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _list(value) -> list:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def tolerant_catalog(data_dir: Path) -> Catalog:
    """The records of a data folder, from whatever fields each file has: no schema, no rules."""
    def read(path: Path) -> dict:
        doc, _ = load(path, str(path), root=data_dir.parent)
        return _mapping(doc.data)

    categories, sources, engines = [], {}, {}
    for raw in (c for c in read(data_dir / "features.yml").get("categories") or [] if isinstance(c, dict)):
        features = [Feature(_text(f.get("id")), _text(f.get("name")), _text(f.get("description")), _text(raw.get("id")),
                            _list(f.get("former-ids"))) for f in raw.get("features") or [] if isinstance(f, dict)]
        categories.append(Category(_text(raw.get("id")), _text(raw.get("name")), _text(raw.get("description")), features))
    for raw in (s for s in read(data_dir / "sources.yml").get("sources") or [] if isinstance(s, dict)):
        sid = _text(raw.get("id"))
        sources.setdefault(sid, Source(sid, _text(raw.get("title")), _text(raw.get("publisher")), _text(raw.get("kind")),
                                       _text(raw.get("checked")), _text(raw.get("url")), _text(raw.get("page")),
                                       quote=_text(raw.get("quote"))))
    for path in sorted((data_dir / "engines").glob("*.yml")):
        raw = read(path)
        eid = _text(raw.get("id")) or path.stem
        support = {fid: Statement(eid, fid, _text(s.get("status")), _text(s.get("detail")), _list(s.get("sources")),
                                  _text(s.get("checked")), _text(s.get("value")))
                   for fid, s in _mapping(raw.get("support")).items() if isinstance(s, dict)}
        engines.setdefault(eid, Engine(eid, _text(raw.get("name")), _text(raw.get("summary")), _text(raw.get("homepage")),
                                       _text(raw.get("repository")), _text(raw.get("license")), _list(raw.get("sources")),
                                       support, path.stem, official_urls=_list(raw.get("official-urls"))))
    return Catalog(statuses={}, categories=categories, sources=sources, engines=engines, needs=[], gaps=[])


def _names(catalog: Catalog):
    return {e.id: e.name for e in catalog.engines.values()}, {f.id: f.name for f in catalog.features.values()}


def _quote(value: str) -> str:
    return f'"{value}"' if value else "(none)"


def statement_change(old, new) -> str:
    """`experimental -> supported; sources: +a -b`, or "" when nothing a reader sees changed."""
    parts = []
    if old.status != new.status:
        parts.append(f"{old.status} -> {new.status}")
    if old.value != new.value:
        parts.append(f"value: {_quote(old.value)} -> {_quote(new.value)}")
    added = [f"+{s}" for s in new.sources if s not in old.sources]
    removed = [f"-{s}" for s in old.sources if s not in new.sources]
    if added or removed:
        parts.append("sources: " + " ".join(added + removed))
    if old.detail != new.detail:
        parts.append("detail reworded")
    if parts and old.checked != new.checked:
        parts.append(f"checked {new.checked}")
    elif not parts and old.checked != new.checked:
        parts.append(f"re-checked {old.checked} -> {new.checked}, no change")
    return "; ".join(parts)


def unbacked_raise(old: Catalog, new: Catalog, engine, before, after) -> bool:
    """The status went up, and no primary source of the statement is new or read again since."""
    from macros.data.evidence import source_level

    if STRENGTH.get(after.status, 0) <= STRENGTH.get(before.status, 0):
        return False
    for sid in after.sources:
        source = new.sources.get(sid)
        if source is None or source_level(source, engine) != "primary":
            continue
        previous = old.sources.get(sid)
        if sid not in before.sources or previous is None or previous.checked != source.checked:
            return False
    return True


def quotes(catalog: Catalog, statement) -> str:
    found = [f'"{catalog.sources[s].quote}" ({s})' for s in statement.sources
             if s in catalog.sources and catalog.sources[s].quote]
    return "; ".join(found)


def describe(old: Catalog, new: Catalog) -> str:
    engines_old, features_old = _names(old)
    engines_new, features_new = _names(new)
    sections: dict[str, list[str]] = {"Look closer": [], "Engines": [], "Features": [], "Statements": [], "Sources": []}

    for eid in engines_new.keys() - engines_old.keys():
        sections["Engines"].append(f"- Added: {engines_new[eid]} (`{eid}`)")
    for eid in engines_old.keys() - engines_new.keys():
        sections["Engines"].append(f"- Removed: {engines_old[eid]} (`{eid}`)")
    for fid in features_new.keys() - features_old.keys():
        renamed = [o for o in new.features[fid].former_ids if o in features_old]
        how = f" (renamed from `{renamed[0]}`)" if renamed else ""
        sections["Features"].append(f"- Added: {features_new[fid]} (`{fid}`){how}")
    for fid in features_old.keys() - features_new.keys():
        sections["Features"].append(f"- Removed: {features_old[fid]} (`{fid}`)")
    for fid in features_new.keys() & features_old.keys():
        if features_new[fid] != features_old[fid] or new.features[fid].description != old.features[fid].description:
            sections["Features"].append(f"- Changed: {features_new[fid]} (`{fid}`): name or description")

    for engine in new.engines.values():
        if engine.id not in old.engines:
            continue
        for fid, statement in engine.support.items():
            before = old.engines[engine.id].support.get(fid)
            if before is not None and (change := statement_change(before, statement)):
                feature = features_new.get(fid, fid)
                sections["Statements"].append(f"- {engine.name} / {feature}: {change}")
                if unbacked_raise(old, new, engine, before, statement):
                    sections["Look closer"].append(
                        f"- {engine.name} / {feature}: raised {before.status} -> {statement.status} without a new or "
                        f"re-checked primary source ({', '.join(f'`{s}`' for s in statement.sources)}): "
                        + (quotes(new, statement) or "no source carries a quote; open them to confirm"))

    for sid in new.sources.keys() - old.sources.keys():
        sections["Sources"].append(f"- Added: `{sid}`, {new.sources[sid].title}")
    for sid in old.sources.keys() - new.sources.keys():
        sections["Sources"].append(f"- Removed: `{sid}`, {old.sources[sid].title}")
    for sid in new.sources.keys() & old.sources.keys():
        a, b = old.sources[sid], new.sources[sid]
        if (a.url, a.page) != (b.url, b.page):
            sections["Sources"].append(f"- Moved: `{sid}`: {a.url or a.page} -> {b.url or b.page}")
        if a.checked != b.checked:
            sections["Sources"].append(f"- Re-checked: `{sid}`: {a.checked} -> {b.checked}")

    lines = ["## Data changes", ""]
    for title, items in sections.items():
        if items:
            lines += [f"### {title}", "", *sorted(items), ""]
    if len(lines) == 2:
        lines += ["No change to the data.", ""]
    # names come from data, old revisions included, which no rule has checked
    return "\n".join(printable(line) for line in lines)
