"""Downloads for wikis and scripts: the catalog as JSON, the matrix as CSV, one JSON per engine,
the JSON Schemas of the data and of the downloads, each stamped with the data date and the commit.

The downloads are a contract: SCHEMA_VERSION says which one (its changelog is on docs/api.md),
the JSON follows macros/site/exports/*.schema.json, the CSV is RFC 4180 with its header on the
first line. Output is deterministic (sorted keys, fixed order, no timestamps beyond the data
date), so two builds of one commit produce the same bytes.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
from dataclasses import asdict, fields
from pathlib import Path

from macros.data.catalog import ROOT, SCHEMA_DIR
from macros.data.changes import git_output
from macros.data.evidence import MAX_AGE_DAYS, checked_against, levels, quality
from macros.data.model import Catalog

SCHEMA_VERSION = "2.2"
EXPORT_SCHEMAS = Path(__file__).parent / "exports"
DATA_LICENSE = "CC-BY-4.0"
CSV_COLUMNS = ["engine", "engine_name", "category", "feature", "feature_name", "status", "value", "detail",
               "sources", "checked", "data_as_of", "commit", "evidence", "since", "basis", "source_versions", "license"]
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def git_commit(root: Path = ROOT) -> str:
    """The short commit of the checkout, or "unknown" outside git."""
    return (git_output(root, "rev-parse", "--short", "HEAD") or "unknown").strip()


def git_commit_date(root: Path = ROOT) -> str:
    """The day of the checkout's commit (YYYY-MM-DD), or "" outside git."""
    return (git_output(root, "log", "-1", "--format=%cs") or "").strip()


def stamp(catalog: Catalog, commit: str) -> dict:
    return {"schema_version": SCHEMA_VERSION, "data_as_of": catalog.data_date, "commit": commit,
            "license": DATA_LICENSE}


def _statement(statement, level: str) -> dict:
    return {"status": statement.status, "value": statement.value, "detail": statement.detail,
            "since": statement.since, "basis": statement.basis, "searched": list(statement.searched),
            "scope": list(statement.scope), "sources": list(statement.sources), "evidence": level,
            "checked": statement.checked}


def _fact(fact) -> dict | None:
    return None if fact is None else {"value": fact.value, "detail": fact.detail, "date": fact.date,
                                      "sources": list(fact.sources)}


def _release(release) -> dict | None:
    return None if release is None else {"version": release.version, "date": release.date,
                                         "sources": list(release.sources)}


def _releases(engine) -> dict:
    latest, channels = engine.latest_release, engine.releases
    return {"stable": _release(latest.stable if latest else None),
            "pre_release": _release(latest.pre_release if latest else None),
            "channels": {"pypi": list(channels.pypi) if channels else [], "github": channels.github if channels else ""},
            "history": [{"version": r.version, "date": r.date, "pre_release": r.pre_release}
                        for r in engine.release_history]}


def _kind(kind) -> dict | None:
    return None if kind is None else {"value": kind.value, "detail": kind.detail, "sources": list(kind.sources),
                                      "packages": [{"engine": p.engine, "version": p.version} for p in kind.packages]}


def _deprecated_latest_release(engine) -> dict | None:
    """`latest_release` as 2.1 wrote it (the stable release), kept until 2027-06-01 for old readers."""
    stable = engine.latest_release.stable if engine.latest_release else None
    return None if stable is None else {"value": stable.version, "detail": "", "date": stable.date,
                                        "sources": list(stable.sources)}


def _engine(catalog: Catalog, engine) -> dict:
    level = levels(catalog)
    return {
        "id": engine.id, "name": engine.name, "summary": engine.summary, "homepage": engine.homepage,
        "repository": engine.repository, "license": engine.license, "official_urls": list(engine.official_urls),
        "maintenance": _fact(engine.maintenance), "latest_release": _deprecated_latest_release(engine),
        "releases": _releases(engine), "kind": _kind(engine.kind),
        "featured_comparisons": list(engine.featured), "checked_against": checked_against(catalog, engine),
        "sources": list(engine.sources),
        "support": {f: _statement(engine.support[f], level[(engine.id, f)]) for f in catalog.features},
    }


def _quality(catalog: Catalog, today) -> dict:
    """The data-quality page's numbers, per engine, from the same function as the page and the check."""
    return {e.id: {k: v for k, v in asdict(quality(catalog, e, today)).items() if k != "engine"}
            for e in catalog.engines.values()}


def _source(source) -> dict:
    # fields, not asdict: asdict would deep-copy the parsed document each record keeps as its origin
    return {f.name: getattr(source, f.name) for f in fields(source) if f.name != "origin" and getattr(source, f.name) != ""}


def catalog_json(catalog: Catalog, commit: str, today=None) -> dict:
    """The whole catalog. `today` is the day staleness is measured from (the commit's day)."""
    today = today or dt.date.fromisoformat(catalog.data_date)
    return {
        **stamp(catalog, commit),
        "statuses": [asdict(s) for s in catalog.statuses.values()],
        "categories": [
            {"id": c.id, "name": c.name, "description": c.description,
             "features": [{"id": f.id, "name": f.name, "description": f.description} for f in c.features]}
            for c in catalog.categories
        ],
        "sources": [_source(s) for s in catalog.sources.values()],
        "engines": [_engine(catalog, e) for e in catalog.engines.values()],
        "quality": {"measured_on": today.isoformat(), "stale_after_days": MAX_AGE_DAYS, "engines": _quality(catalog, today)},
    }


def source_versions(catalog: Catalog, statement) -> str:
    """What the statement's sources describe: `id@version` or `id@commit`, space separated."""
    parts = []
    for sid in statement.sources:
        source = catalog.sources[sid]
        if source.version or source.commit:
            parts.append(f"{sid}@{source.version or source.commit[:10]}")
    return " ".join(parts)


def spreadsheet_safe(text: str) -> str:
    """The text with a leading apostrophe when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def matrix_csv(catalog: Catalog, commit: str) -> str:
    """One row per statement, header first (RFC 4180: CRLF line ends, quotes only where needed)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    level, data_as_of = levels(catalog), catalog.data_date
    for engine in catalog.engines.values():
        for category in catalog.categories:
            for feature in category.features:
                st = engine.support[feature.id]
                row = {"engine": engine.id, "engine_name": engine.name, "category": category.id,
                       "feature": feature.id, "feature_name": feature.name, "status": st.status,
                       "value": st.value, "detail": st.detail, "sources": " ".join(st.sources),
                       "checked": st.checked, "data_as_of": data_as_of, "commit": commit,
                       "evidence": level[(engine.id, feature.id)], "since": st.since, "basis": st.basis,
                       "source_versions": source_versions(catalog, st), "license": DATA_LICENSE}
                writer.writerow({key: spreadsheet_safe(value) for key, value in row.items()})
    return out.getvalue()


def _dump(data) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def downloads(catalog: Catalog, commit: str, today=None) -> dict[str, str]:
    """Relative path -> text of every download."""
    files = {
        "catalog.json": _dump(catalog_json(catalog, commit, today)),
        "matrix.csv": matrix_csv(catalog, commit),
    }
    for engine in catalog.engines.values():
        files[f"engines/{engine.id}.json"] = _dump({**stamp(catalog, commit), **_engine(catalog, engine)})
    for schema in sorted(SCHEMA_DIR.glob("*.schema.json")):
        data = json.loads(schema.read_text(encoding="utf-8"))
        data["x-data-as-of"], data["x-commit"] = catalog.data_date, commit
        files[f"schema/{schema.name}"] = _dump(data)
    for schema in sorted(EXPORT_SCHEMAS.glob("*.schema.json")):  # the downloads' own contract, beside them
        files[schema.name] = schema.read_text(encoding="utf-8")
    return files


def export(catalog: Catalog, target: Path, commit: str | None = None) -> list[Path]:
    """Write every download under `target`; returns the files written."""
    written = []
    day = git_commit_date()
    for name, text in downloads(catalog, commit or git_commit(), dt.date.fromisoformat(day) if day else None).items():
        path = Path(target) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

