"""The data change of a pull request in plain words, for a reviewer: `python -m macros diff REV`.

Compares the catalog at a git revision with the working tree and writes Markdown:
engines and features added or removed, each statement whose status, value, detail or
sources changed, and sources added, removed or re-checked.
"""
from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from pathlib import Path

from macros.data.catalog import read_catalog
from macros.data.model import Catalog
from macros.data.problems import printable


class RevisionError(Exception):
    pass


def _git(cwd: Path, *args: str) -> bytes:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    if result.returncode != 0:
        raise RevisionError(result.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return result.stdout


def catalog_at(revision: str, data_dir: Path) -> Catalog:
    """The catalog as it was at `revision` (problems are ignored: a reviewer wants the change)."""
    data_dir = Path(data_dir).resolve()
    top = Path(_git(data_dir, "rev-parse", "--show-toplevel").decode().strip())
    inside = data_dir.relative_to(top).as_posix()
    archive = _git(top, "archive", "--format=tar", revision, inside)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        catalog, _ = read_catalog(Path(tmp) / inside)
    return catalog


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


def describe(old: Catalog, new: Catalog) -> str:
    engines_old, features_old = _names(old)
    engines_new, features_new = _names(new)
    sections: dict[str, list[str]] = {"Engines": [], "Features": [], "Statements": [], "Sources": []}

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
