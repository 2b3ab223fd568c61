"""Consistency rules beyond the schema. One function each; its docstring is its one-line description.

Each rule takes the catalog and today's date and yields Problems. `RULES` lists them in
the order they run; tests/test_rules.py shows each one firing on a bad fixture.
"""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from macros.data.model import Catalog
from macros.data.problems import Problem, did_you_mean

RULES = []


def rule(function):
    RULES.append(function)
    return function


def run_rules(catalog: Catalog, today: dt.date) -> list[Problem]:
    return [problem for check in RULES for problem in check(catalog, today)]


@rule
def engine_id_matches_file(catalog, today):
    """An engine's `id` equals its file name, so data/engines/<id>.yml is where to look."""
    for engine in catalog.engines.values():
        if engine.id != engine.file_stem:
            yield engine.origin.problem(f"id '{engine.id}' differs from the file name '{engine.file_stem}.yml'",
                                        f"rename the file to {engine.id}.yml, or set `id: {engine.file_stem}`", at=("id",))


@rule
def unknown_feature(catalog, today):
    """Every feature id in an engine's `support` exists in data/features.yml."""
    features = catalog.features
    for engine in catalog.engines.values():
        for fid, statement in engine.support.items():
            if fid not in features and fid not in catalog.broken_ids:
                yield statement.origin.problem(f"unknown feature '{fid}'",
                                               did_you_mean(fid, features) or "add it to data/features.yml first", key=True)


@rule
def missing_statement(catalog, today):
    """Every engine has a statement for every feature (`unknown` when nothing says)."""
    for engine in catalog.engines.values():
        declared = engine.origin.doc.data.get("support") or {}
        for fid, feature in catalog.features.items():
            if fid not in declared:
                yield engine.origin.problem(f"no statement for feature '{fid}' ({feature.name})",
                                            "add it under `support:`; use `status: unknown` and say what you looked for "
                                            "when no source says", at=("support",), key=True)


@rule
def unknown_source(catalog, today):
    """Every cited source id exists in data/sources.yml."""
    for engine in catalog.engines.values():
        citing = [(engine.origin, ("sources",), engine.sources)]
        citing += [(s.origin, ("sources",), s.sources) for s in engine.support.values()]
        for origin, at, ids in citing:
            for i, sid in enumerate(ids):
                if sid not in catalog.sources and sid not in catalog.broken_ids:
                    yield origin.problem(f"unknown source '{sid}'",
                                         did_you_mean(sid, catalog.sources) or "add it to data/sources.yml first",
                                         at=at + (i,))


@rule
def source_never_cited(catalog, today):
    """Every source in data/sources.yml is cited at least once: an uncited source is clutter or a lost claim."""
    if not catalog.complete:
        return
    cited = {sid for engine in catalog.engines.values() for sid in engine.sources}
    cited |= {sid for statement in catalog.statements() for sid in statement.sources}
    for source in catalog.sources.values():
        if source.id not in cited:
            yield source.origin.problem(f"source '{source.id}' is never cited",
                                        "cite it from a statement, or remove it", at=("id",))


def _duplicates(records, what: str):
    counts = Counter(r.id for r in records)
    first = {}
    for record in records:
        if counts[record.id] > 1 and record.id in first:
            yield record.origin.problem(f"duplicate {what} id '{record.id}' (first at line {first[record.id]})",
                                        "ids must be unique: rename one or merge the two", at=("id",))
        first.setdefault(record.id, record.origin.doc.where(record.origin.pointer + ("id",))[0])


@rule
def duplicate_ids(catalog, today):
    """Category, feature, source and guide need ids are each unique."""
    yield from _duplicates(catalog.categories, "category")
    yield from _duplicates([f for c in catalog.categories for f in c.features], "feature")
    yield from _duplicates(catalog.source_list, "source")
    yield from _duplicates(catalog.need_list, "need")


@rule
def former_ids_are_free(catalog, today):
    """A former id is not the id, or former id, of another feature or engine: old links must land on one record."""
    for kind, records in (("feature", list(catalog.features.values())), ("engine", list(catalog.engines.values()))):
        owner = {r.id: r.id for r in records}
        for record in records:
            for i, old in enumerate(record.former_ids):
                if old in owner and owner[old] != record.id:
                    yield record.origin.problem(f"former id '{old}' is already used by {kind} '{owner[old]}'",
                                                "an old link can lead to only one place: remove one of the two",
                                                at=("former-ids", i))
                owner.setdefault(old, record.id)


@rule
def duplicate_source_url(catalog, today):
    """Two sources do not share a URL: cite one source id from many statements instead."""
    first = {}
    for source in catalog.source_list:
        if source.url in first and first[source.url] != source.id:
            yield source.origin.problem(f"source '{source.id}' has the same URL as '{first[source.url]}'",
                                        f"cite '{first[source.url]}' instead and remove this one", at=("url",))
        first.setdefault(source.url, source.id)


def _dated(catalog):
    for source in catalog.sources.values():
        yield source.origin, source.checked
    for statement in catalog.statements():
        yield statement.origin, statement.checked


@rule
def checked_date_valid(catalog, today):
    """A `checked` date is a real calendar date and not in the future."""
    for origin, checked in _dated(catalog):
        try:
            day = dt.date.fromisoformat(checked)
        except ValueError:
            yield origin.problem(f"checked date '{checked}' is not a real date", "write it as YYYY-MM-DD", at=("checked",))
            continue
        if day > today:
            yield origin.problem(f"checked date {checked} is in the future (today is {today.isoformat()})",
                                 "use the day you actually read the source", at=("checked",))


_LINK = re.compile(r"\]\((?P<url>[^)\s]+)\)")
_RAW_HTML = re.compile(r"<\s*/?\s*[a-zA-Z][^>]*>")
_CODE_SPAN = re.compile(r"`[^`]*`")


def _texts(catalog):
    """Every inline-Markdown text in the catalog, with where it is."""
    for engine in catalog.engines.values():
        yield engine.origin, ("summary",), engine.summary
        for statement in engine.support.values():
            yield statement.origin, ("detail",), statement.detail
    for category in catalog.categories:
        for feature in category.features:
            yield feature.origin, ("description",), feature.description
    for need in catalog.needs:
        yield need.origin, ("why",), need.why


@rule
def links_use_https(catalog, today):
    """Links inside text use https://, like every source URL."""
    for origin, at, text in _texts(catalog):
        for match in _LINK.finditer(text):
            if not match["url"].startswith(("https://", "#", "/")):
                yield origin.problem(f"link '{match['url']}' is not https://", "use the https:// address", at=at)


@rule
def no_raw_html(catalog, today):
    """Text is inline Markdown, not HTML: tags would show as text on the site."""
    for origin, at, text in _texts(catalog):
        for match in _RAW_HTML.finditer(_CODE_SPAN.sub("", text)):
            yield origin.problem(f"HTML tag {match.group(0)} in text",
                                 "use Markdown (`code`, *emphasis*, [text](https://...)); wrap a literal tag in backticks",
                                 at=at)


@rule
def unknown_not_dressed_as_known(catalog, today):
    """An `unknown` statement has no `value`: a value would present a guess as a fact."""
    for statement in catalog.statements():
        if statement.status == "unknown" and statement.value:
            yield statement.origin.problem(f"status is unknown, yet value says '{statement.value}'",
                                           "remove `value`, or set the status the sources support", at=("value",))


def documents(catalog):
    """Every loaded data file, once."""
    seen = {}
    records = [*catalog.engines.values(), *catalog.categories, *catalog.source_list, *catalog.need_list, *catalog.gaps]
    for record in records:
        seen.setdefault(record.origin.path, record.origin.doc)
    return list(seen.values())


@rule
def canonical_order(catalog, today):
    """Keys follow one order (the schema's, and features.yml's for `support`), so diffs stay small: `make fmt` fixes it."""
    from macros.data.canonical import canonical_keys, mapping_orders
    from macros.data.catalog import SCHEMA_DIR

    order = list(catalog.features)
    for doc in documents(catalog):
        for pointer, mapping, expected in mapping_orders(doc.data, doc.schema, SCHEMA_DIR, order):
            keys = list(mapping)
            wanted = canonical_keys(keys, expected)
            if keys != wanted:
                first = next(i for i, (a, b) in enumerate(zip(keys, wanted)) if a != b)
                yield doc.problem(pointer + (keys[first],), f"'{keys[first]}' is out of order here: expected "
                                  f"'{wanted[first]}' first", "run `make fmt` to put every key in its place", key=True)
                break  # one per file is enough to send the contributor to `make fmt`


@rule
def guide_features_exist(catalog, today):
    """Every feature the decision guide names exists in data/features.yml."""
    features = catalog.features
    refs = [(r.origin, r.feature) for need in catalog.needs for r in need.requires]
    refs += [(gap.origin, gap.feature) for gap in catalog.gaps]
    for origin, fid in refs:
        if fid not in features and fid not in catalog.broken_ids:
            yield origin.problem(f"unknown feature '{fid}'", did_you_mean(fid, features), at=("feature",))
