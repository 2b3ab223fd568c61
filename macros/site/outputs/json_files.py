"""The JSON downloads: the catalog as one file, one file per engine, and the JSON Schemas of the
data and of the downloads, each stamped with the data date and the commit (data/catalog.json,
data/engines/<id>.json, data/schema/*.schema.json, data/*.schema.json).

The downloads are a contract: SCHEMA_VERSION says which one (its changelog is on docs/api.md), the
JSON follows macros/site/outputs/schemas/*.schema.json. Output is deterministic (sorted keys, fixed
order, no timestamps beyond the data date), so two builds of one commit produce the same bytes.
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, fields
from pathlib import Path

from macros.data.catalog import SCHEMA_DIR
from macros.data.evidence import MAX_AGE_DAYS, checked_against, quality
from macros.data.model import Catalog

NAME = "JSON downloads"
SCHEMA_VERSION = "2.2"
EXPORT_SCHEMAS = Path(__file__).parent / "schemas"
DATA_LICENSE = "CC-BY-4.0"


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
    level = catalog.levels
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


def _dump(data) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def files(build) -> dict[str, str]:
    catalog, commit = build.catalog, build.settings.commit
    found = {"data/catalog.json": _dump(catalog_json(catalog, commit, build.today))}
    for engine in catalog.engines.values():
        found[f"data/engines/{engine.id}.json"] = _dump({**stamp(catalog, commit), **_engine(catalog, engine)})
    for schema in sorted(SCHEMA_DIR.glob("*.schema.json")):
        data = json.loads(schema.read_text(encoding="utf-8"))
        data["x-data-as-of"], data["x-commit"] = catalog.data_date, commit
        found[f"data/schema/{schema.name}"] = _dump(data)
    for schema in sorted(EXPORT_SCHEMAS.glob("*.schema.json")):  # the downloads' own contract, beside them
        found[f"data/{schema.name}"] = schema.read_text(encoding="utf-8")
    return found
