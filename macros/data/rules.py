"""Consistency rules beyond the schema. One function each; its docstring is its one-line description.

Each rule takes the catalog and today's date and yields Problems. `RULES` lists them in
the order they run; tests/test_rules.py shows each one firing on a bad fixture.
"""
from __future__ import annotations

import datetime as dt
import difflib
import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from macros.data.model import Catalog, Origin
from macros.data.problems import Problem, did_you_mean

RULES = []
SHOWN_PER_FILE = 20  # problems of one kind shown per file before a count: a hostile file stays readable


def rule(function):
    RULES.append(function)
    return function


def run_rules(catalog: Catalog, today: dt.date) -> list[Problem]:
    return [problem for check in RULES for problem in check(catalog, today)]


def renamed_tip(records: dict, old: str, write: str) -> str:
    """The tip for a reference to the former id of a feature or engine in `records`, or "": `write` shows the new one."""
    new = next((r.id for r in records.values() if old in r.former_ids), "")
    return f"'{old}' was renamed '{new}': write `{write.format(new)}`" if new else ""


@rule
def engine_id_matches_file(catalog, today):
    """An engine's `id` equals its file name, so data/engines/<id>.yml is where to look."""
    for engine in catalog.engines.values():
        if engine.id != engine.file_stem:
            yield engine.origin.problem(f"id '{engine.id}' differs from the file name '{engine.file_stem}.yml'",
                                        f"rename the file to {engine.id}.yml, or set `id: {engine.file_stem}`", at=("id",))


def misspelt_features(catalog, engine) -> dict[str, str]:
    """Keys of an engine's `support` that are no feature but a typo (or former id) of one it has no statement for."""
    declared = engine.origin.doc.data.get("support") or {}
    if not isinstance(declared, dict):
        return {}
    former = {old: f.id for f in catalog.features.values() for old in f.former_ids}
    missing = [fid for fid in catalog.features if fid not in declared]
    unknown = [k for k in engine.support if k not in catalog.features and k not in catalog.broken_ids]
    found = {}
    for key in unknown[:SHOWN_PER_FILE]:  # the ones unknown_feature reports
        free = [fid for fid in missing if fid not in found.values()]
        close = [former[key]] if former.get(key) in free else difflib.get_close_matches(str(key), free, n=1, cutoff=0.6)
        if close:
            found[key] = close[0]
    return found


def _misspelt_tip(catalog, key: str, meant: str) -> str:
    """The tip for a `support` key that stands for feature `meant`: a typo or a former id."""
    feature = catalog.features[meant]
    why = f"'{key}' was renamed '{meant}'." if key in feature.former_ids else f"did you mean '{meant}'?"
    return f"{why} This file has no statement for '{meant}' ({feature.name}): rename the key to `{meant}:`"


@rule
def unknown_feature(catalog, today):
    """Every feature id in an engine's `support` exists in data/features.yml."""
    if "features.yml" in catalog.unread:
        return
    features = catalog.features
    for engine in catalog.engines.values():
        misspelt = misspelt_features(catalog, engine)
        unknown = [(fid, s) for fid, s in engine.support.items() if fid not in features and fid not in catalog.broken_ids]
        for fid, statement in unknown[:SHOWN_PER_FILE]:
            meant = misspelt.get(fid)
            close = "" if meant else did_you_mean(fid, features, "feature")
            tip = _misspelt_tip(catalog, fid, meant) if meant else \
                close if close.startswith("did you mean") else "add it to data/features.yml first"
            yield statement.origin.problem(f"unknown feature '{fid}'", tip, key=True)
        if len(unknown) > SHOWN_PER_FILE:
            yield engine.origin.problem(f"and {len(unknown) - SHOWN_PER_FILE} more unknown features in this file",
                                        "support lists the feature ids of data/features.yml", at=("support",), key=True)


@rule
def missing_statement(catalog, today):
    """Every engine has a statement for every feature (`unknown` when nothing says)."""
    if "features.yml" in catalog.unread:
        return
    for engine in catalog.engines.values():
        declared = engine.origin.doc.data.get("support") or {}
        misspelt = set(misspelt_features(catalog, engine).values())  # unknown_feature names them, at the typo
        for fid, feature in catalog.features.items():
            if fid not in declared and fid not in misspelt:
                yield engine.origin.problem(f"no statement for feature '{fid}' ({feature.name})",
                                            "add it under `support:`; use `status: unknown` and say what you looked for "
                                            "when no source says", at=("support",), key=True)


@rule
def unknown_source(catalog, today):
    """Every cited source id exists in data/sources.yml."""
    if "sources.yml" in catalog.unread:
        return
    for engine in catalog.engines.values():
        citing = [(engine.origin, ("sources",), engine.sources)]
        citing += [(s.origin, ("sources",), s.sources) for s in engine.support.values()]
        citing += [(f.origin, ("sources",), f.sources) for f in engine.facts()]
        for origin, at, ids in citing:
            for i, sid in enumerate(ids):
                if sid not in catalog.sources and sid not in catalog.broken_ids:
                    yield origin.problem(f"unknown source '{sid}'", did_you_mean(sid, catalog.sources, "source")
                                         or "add it to data/sources.yml first",
                                         at=at + (i,))


def citations(catalog) -> Counter:
    """How many times each source id is cited: by engines, their facts and their statements."""
    cited = Counter(sid for engine in catalog.engines.values() for sid in engine.sources)
    cited.update(sid for statement in catalog.statements() for sid in statement.sources)
    cited.update(sid for e in catalog.engines.values() for f in e.facts() for sid in f.sources)
    return cited


@rule
def source_never_cited(catalog, today):
    """Every source in data/sources.yml is cited at least once: an uncited source is clutter or a lost claim."""
    if not catalog.complete:
        return
    cited = citations(catalog)
    for source in catalog.sources.values():
        if not cited[source.id]:
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
def featured_comparisons_exist(catalog, today):
    """An engine's featured comparisons name other engines that exist."""
    for engine in catalog.engines.values():
        for i, other in enumerate(engine.featured):
            if other == engine.id or other not in catalog.engines:
                yield engine.origin.problem(f"featured comparison with '{other}', which is not another engine",
                                            renamed_tip(catalog.engines, other, "{}") or
                                            did_you_mean(other, set(catalog.engines) - {engine.id}, "engine"),
                                            at=("featured-comparisons", i))


@rule
def need_niches_name_engines(catalog, today):
    """A need's `for` names engines that exist."""
    for need in catalog.needs:
        for i, eid in enumerate(need.only_for):
            if eid not in catalog.engines and eid not in catalog.broken_ids:
                yield need.origin.problem(f"'for' names '{eid}', which is not an engine",
                                          renamed_tip(catalog.engines, eid, "{}")
                                          or did_you_mean(eid, catalog.engines, "engine"), at=("for", i))


@rule
def retired_ids_stay_retired(catalog, today):
    """A retired feature id is not in use again, and names only live features as what it became."""
    live = {fid: f.id for f in catalog.features.values() for fid in (f.id, *f.former_ids)}
    seen = set()
    for record in catalog.retired:
        if record.id in live or record.id in seen:
            yield record.origin.problem(f"retired feature id '{record.id}' is in use again",
                                        "an old link must land on one page: choose another id for the new feature",
                                        at=("id",))
        seen.add(record.id)
        for i, fid in enumerate(record.became):
            if fid not in catalog.features:
                yield record.origin.problem(f"'{fid}' is not a feature", renamed_tip(catalog.features, fid, "{}")
                                            or did_you_mean(fid, catalog.features, "feature"), at=("became", i))


@rule
def duplicate_source_url(catalog, today):
    """Two sources do not share a URL: cite one source id from many statements instead."""
    first, cited = {}, citations(catalog)
    for source in catalog.source_list:
        other = first.get(source.url)
        if other and other.id != source.id:
            keep, drop = sorted((other, source), key=lambda s: -cited[s.id])  # the more cited; the first on a tie
            line = other.origin.doc.where(other.origin.pointer + ("url",))[0]
            n = cited[drop.id]
            repoint = (f"change {'the citation' if n == 1 else f'the {n} citations'} of '{drop.id}' to '{keep.id}', "
                       f"then remove '{drop.id}'" if n else f"remove '{drop.id}', which nothing cites")
            yield source.origin.problem(f"source '{source.id}' has the same URL as '{other.id}' (line {line})",
                                        f"keep '{keep.id}' (cited {_times(cited[keep.id])}); {repoint} (first move into "
                                        f"'{keep.id}' any version, commit or quote only '{drop.id}' has)", at=("url",))
        first.setdefault(source.url, source)


def _times(count: int) -> str:
    """'once', '3 times'."""
    return "once" if count == 1 else f"{count} times"


def _dated(catalog):
    for source in catalog.sources.values():
        yield source.origin, source.checked
    for statement in catalog.statements():
        yield statement.origin, statement.checked


def latest_today_on_earth(now: dt.datetime | None = None) -> dt.date:
    """The date in the first time zone to reach it (UTC+14): no honest local date is later."""
    now = now or dt.datetime.now(dt.UTC)
    return (now.astimezone(dt.UTC) + dt.timedelta(hours=14)).date()


@rule
def checked_date_valid(catalog, today):
    """A `checked` date is a real calendar date and not later than today anywhere on Earth."""
    for origin, checked in _dated(catalog):
        try:
            day = dt.date.fromisoformat(checked)
        except ValueError:
            yield origin.problem(f"checked date '{checked}' is not a real date", "write it as YYYY-MM-DD", at=("checked",))
            continue
        if day > today:
            yield origin.problem(f"checked date {checked} is in the future (it is {today.isoformat()} at the latest, "
                                 "anywhere on Earth)",
                                 "use the day you actually read the source", at=("checked",))


# Linear on hostile text: a URL cannot hold a bracket or parenthesis, a tag cannot hold `<`, and
# `<`, `/` and the spaces around them are matched one way only, so no attempt rescans another's text.
_LINK = re.compile(r"\]\((?P<url>[^()\[\]\s]+)\)")
_RAW_HTML = re.compile(r"<\s*(?:/\s*)?[a-zA-Z][^<>]*>")
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
    from macros.data.evidence import UNDOCUMENTED, strength_is

    for statement in catalog.statements():
        if strength_is(catalog, statement, UNDOCUMENTED) and statement.value:
            yield statement.origin.problem(f"status is unknown, yet value says '{statement.value}'",
                                           "remove `value`, or set the status the sources support", at=("value",))


def documents(catalog):
    """Every loaded data file, once."""
    seen = {}
    records = [*catalog.engines.values(), *catalog.categories, *catalog.source_list, *catalog.need_list, *catalog.gaps,
               *catalog.seed_claims]
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
                first = next(i for i, (a, b) in enumerate(zip(keys, wanted, strict=True)) if a != b)
                yield doc.problem(pointer + (keys[first],), f"'{keys[first]}' is out of order here: expected "
                                  f"'{wanted[first]}' first", "run `make fmt` to put every key in its place", key=True)
                break  # one per file is enough to send the contributor to `make fmt`


@rule
def guide_features_exist(catalog, today):
    """Every feature the decision guide names (needs, what to build yourself, interfaces) exists in data/features.yml."""
    if "features.yml" in catalog.unread:
        return
    features = catalog.features
    refs = [(r.origin, r.feature) for need in catalog.needs for r in need.requires]
    refs += [(gap.origin, gap.feature) for gap in catalog.gaps]
    if catalog.needs or catalog.gaps:
        origin = (catalog.needs or catalog.gaps)[0].origin
        refs += [(Origin(origin.doc, ("interfaces", key)), fid) for key, fid in catalog.interfaces.items()]
    for origin, fid in refs:
        if fid not in features and fid not in catalog.broken_ids:
            interface = origin.pointer[:1] == ("interfaces",)
            key = origin.pointer[-1] if interface else "feature"
            yield origin.problem(f"unknown feature '{fid}'", renamed_tip(catalog.features, fid, f"{key}: {{}}")
                                 or did_you_mean(fid, features, "feature"), at=() if interface else ("feature",))


HARDWARE = "hardware"  # the category whose features a statement's `scope` names


@rule
def scope_names_hardware(catalog, today):
    """A statement's `scope` names features of the Hardware category that the engine does not deny."""
    if "features.yml" in catalog.unread:
        return
    from macros.data.evidence import ABSENT, strength_is

    hardware = {f.id for c in catalog.categories if c.id == HARDWARE for f in c.features}
    for engine in catalog.engines.values():
        for statement in engine.support.values():
            for i, fid in enumerate(statement.scope):
                if fid not in hardware:
                    yield statement.origin.problem(f"scope names '{fid}', which is not a hardware feature",
                                                   renamed_tip(catalog.features, fid, "{} in scope") or
                                                   (did_you_mean(fid, hardware, "hardware feature") if hardware else "")
                                                   or "scope lists feature ids of the Hardware category", at=("scope", i))
                elif engine.support.get(fid) is not None and strength_is(catalog, engine.support[fid], ABSENT):
                    yield statement.origin.problem(f"scope names '{fid}', but {engine.name} does not support it "
                                                   f"(its {fid} cell is not-supported)",
                                                   "remove it from scope, or correct the hardware cell", at=("scope", i))


def _channel_prefixes(engine) -> list[tuple[tuple, str]]:
    """(where, the official URL prefix a release channel must fall under) for each channel."""
    channels = engine.releases
    if channels is None:
        return []
    found = [(("releases", "pypi", i), f"https://pypi.org/project/{name}/") for i, name in enumerate(channels.pypi)]
    if channels.github:
        found.append((("releases", "github"), f"https://github.com/{channels.github}/"))
    return found


@rule
def release_channels_are_official(catalog, today):
    """A release channel (a PyPI package, a GitHub repository) lies under one of the engine's official URLs."""
    for engine in catalog.engines.values():
        for at, url in _channel_prefixes(engine):
            if not any(url.lower().startswith(prefix.lower()) for prefix in engine.official_urls):
                yield engine.origin.problem(f"release channel {url} is not under one of {engine.name}'s official-urls",
                                            "only the project's own channels: add its prefix to `official-urls` if "
                                            "the project links it, or remove the channel", at=at)


def parse_version(text: str):
    """A release version as packaging reads it (a leading `v` allowed), or None when it is not one."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(text.removeprefix("v").removeprefix("V"))
    except InvalidVersion:
        return None


@rule
def pre_release_is_newer(catalog, today):
    """A recorded pre-release is a pre-release, newer than the recorded stable release, which is not one."""
    for engine in catalog.engines.values():
        latest = engine.latest_release
        if latest is None:
            continue
        stable = parse_version(latest.stable.version)
        if stable is not None and stable.is_prerelease:
            yield latest.stable.origin.problem(f"stable release {latest.stable.version} is a pre-release",
                                               "record it under `pre-release`, and the newest stable one under `stable`",
                                               at=("version",))
        pre = parse_version(latest.pre_release.version) if latest.pre_release else None
        if pre is not None and stable is not None and not (pre.is_prerelease and pre > stable):
            yield latest.pre_release.origin.problem(
                f"pre-release {latest.pre_release.version} is not a pre-release newer than {latest.stable.version}",
                "remove `pre-release` when there is none newer than the stable release", at=("version",))


# --- text that reaches pages, titles and terminals ----------------------------------------

# Short texts shown as names and labels: in titles, navigation, headings and attributes.
LABEL_KEYS = frozenset({"name", "title", "label", "value", "publisher", "license", "version", "since"})
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_INVISIBLE = re.compile("[\u180e\u200b-\u200d\u2060-\u2064\ufeff\U000e0000-\U000e007f]")
_TEMPLATE = re.compile(r"\{[{%#]")
_ASCII_SUSPECT = re.compile("[\x00-\x1f\x7f{<>]")  # in ASCII text, only these can start a problem above
_ANGLE = re.compile(r"[<>]")
_EMOJI_MODIFIERS = "\ufe0f\ufe0e" + "".join(chr(c) for c in range(0x1F3FB, 0x1F400))


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So" or 0x1F000 <= ord(char) <= 0x1FAFF


def _invisible_in_place(text: str, index: int) -> bool:
    """Zero-width characters that belong where they are: a joiner inside an emoji sequence
    (👩‍💻), a non-joiner between letters (Persian, Indic scripts), tags after a flag."""
    char = text[index]
    # a window, not the whole prefix: copying text[:index] for each of 100,000 joiners is quadratic
    before = text[max(0, index - 64):index].rstrip(_EMOJI_MODIFIERS)
    after = text[index + 1:index + 2]
    if char == "\u200d":
        return bool(before and after) and _is_emoji(before[-1]) and _is_emoji(after)
    if char == "\u200c":
        return bool(before and after) and before[-1].isalpha() and after.isalpha()
    if 0xE0000 <= ord(char) <= 0xE007F:
        return bool(before) and (before[-1] == "\U0001f3f4" or 0xE0000 <= ord(before[-1]) <= 0xE007F)
    return False


def _suspect_strings(node, pointer=()):
    """(pointer, text) for every string in a document that text_problems must look at: the rest,
    almost all of it, is plain ASCII, which is passed over without building its pointer."""
    if isinstance(node, str):
        if not _surely_plain(node):
            yield pointer, node
    elif isinstance(node, dict | list):
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, dict | list) or isinstance(value, str) and not _surely_plain(value):
                yield from _suspect_strings(value, pointer + (key,))


def _surely_plain(text: str) -> bool:
    """Plain ASCII with nothing text_problems looks for: decided in one scan."""
    return text.isascii() and not _ASCII_SUSPECT.search(text)


def _character(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'a control character')}"


def _field(pointer) -> str:
    return next((str(p) for p in reversed(pointer) if isinstance(p, str)), "value")


def text_problems(field: str, text: str) -> list[tuple[str, str]]:
    """(message, tip) for each way `text` could hide, fake or inject: the same test for the data
    and for `make new-engine`. Labels (names, titles, values) are held to the stricter rule."""
    if _surely_plain(text):
        return []  # the common case: nothing below can match
    found = []
    label = field in LABEL_KEYS or field in ("id", "former-ids")
    control = _CONTROL.search(text if label else text.replace("\n", "").replace("\t", ""))
    if control:
        found.append((f"'{field}' contains {_character(control[0])}",
                      "control characters can hide or fake text: delete it (retype the text)"))
    bidi = _BIDI.search(text)
    if bidi:
        found.append((f"'{field}' contains {_character(bidi[0])}, a bidi control",
                      "it makes text read differently to reviewers and readers: delete it"))
    hidden = next((m for m in _INVISIBLE.finditer(text) if not _invisible_in_place(text, m.start())), None)
    if hidden:
        found.append((f"'{field}' contains {_character(hidden[0])}, an invisible character",
                      "two texts that look the same would differ: delete it"))
    marker = _TEMPLATE.search(text if label else _CODE_SPAN.sub("", text))
    if marker:
        found.append((f"'{field}' contains `{marker[0]}`, which opens template syntax",
                      "write it inside backticks (`{{ like this }}`) in a description; names cannot hold it"))
    angle = _ANGLE.search(text) if label else None
    if angle:
        found.append((f"'{field}' contains `{angle[0]}`", "names and labels are plain text: write 'less than' or drop "
                      "the bracket"))
    return found


@rule
def text_is_plain(catalog, today):
    """Text has no control, bidi or invisible characters, and names hold no markup or template syntax."""
    for doc in documents(catalog):
        for pointer, text in _suspect_strings(doc.data):
            for message, tip in text_problems(_field(pointer), text):
                yield doc.problem(pointer, message, tip)


def _urls(catalog):
    """Every URL in the data, with where it is: addresses, official prefixes, the URLs among the
    places an unknown was searched, links inside text."""
    for engine in catalog.engines.values():
        yield engine.origin, ("homepage",), engine.homepage
        yield engine.origin, ("repository",), engine.repository
        for i, prefix in enumerate(engine.official_urls):
            yield engine.origin, ("official-urls", i), prefix
        for statement in engine.support.values():
            for i, place in enumerate(statement.searched):
                if place.lower().startswith(("http:", "https:")) or "://" in place:
                    yield statement.origin, ("searched", i), place
    for source in catalog.source_list:
        if source.url:
            yield source.origin, ("url",), source.url
    for origin, at, text in _texts(catalog):
        for match in _LINK.finditer(text):
            if match["url"].startswith("https://"):
                yield origin, at, match["url"]


# Dots that look like `.` but are not: a host written with them shows one name and goes to another
_LOOKALIKE_DOTS = "\u3002\uff0e\uff61\u2024\ufe52"


@functools.lru_cache(maxsize=1 << 16)  # the same pages are cited and searched again and again; the answer is the URL's alone
def url_problem(url: str) -> tuple[str, str] | None:
    """(what is wrong, what to do) when `url` is not a plain https address that shows where it goes."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        parts, host = None, None
    if parts is None or parts.scheme != "https" or not host:
        return f"'{url}' is not an https:// address with a host", "use the page's https:// address"
    if "@" in parts.netloc:
        return (f"'{url}' carries a user name or password (`...@`)",
                "remove everything between https:// and @: a link must show the host it goes to, and credentials "
                "must never be published")
    if "\\" in url:
        return f"'{url}' contains a backslash", "browsers read it as /: write the address with /"
    dot = next((c for c in parts.netloc if c in _LOOKALIKE_DOTS), None)
    if dot:
        return (f"'{url}' has a look-alike dot in its host ({_character(dot)})",
                "write the host with ASCII dots (.)")
    if not parts.netloc.isascii():
        try:
            ascii_form = host.encode("idna").decode("ascii")
        except UnicodeError:
            ascii_form = ""
        tip = f"write its ASCII (punycode) form, {ascii_form}, which is what readers will see" if ascii_form else \
            "write the host in ASCII: an internationalised name can imitate another"
        return f"'{url}' has a host name that is not ASCII", tip
    return None


@rule
def urls_are_plain_https(catalog, today):
    """URLs are https:// with an ASCII host, no look-alike dots, and no user name or password in them."""
    for origin, at, url in _urls(catalog):
        found = url_problem(url)
        if found:
            yield origin.problem(*found, at=at)


# Hosts where anyone may publish: a prefix there must name the project's own owner or package.
# host -> the path segments that name it (github.com/<org>/, pypi.org/project/<package>/).
MULTI_TENANT = {"github.com": 1, "raw.githubusercontent.com": 1, "gitlab.com": 1, "huggingface.co": 1,
                "codeberg.org": 1, "bitbucket.org": 1, "ghcr.io": 1, "pypi.org": 2, "test.pypi.org": 2,
                "hub.docker.com": 2, "files.pythonhosted.org": 2, "www.npmjs.com": 2, "crates.io": 2,
                "catalog.ngc.nvidia.com": 2, "docs.rs": 1, "readthedocs.org": 2, "anaconda.org": 1}


@rule
def official_urls_name_the_project(catalog, today):
    """An official URL prefix ends at a path boundary (`/`) and, on a host where anyone may publish, names an owner or package."""
    from urllib.parse import urlsplit

    for engine in catalog.engines.values():
        for i, prefix in enumerate(engine.official_urls):
            try:
                parts = urlsplit(prefix)
            except ValueError:
                continue  # urls_are_plain_https says what is wrong with it
            host = (parts.hostname or "").lower()
            segments = [s for s in parts.path.split("/") if s]
            needed = MULTI_TENANT.get(host, 0)
            if len(segments) < needed:
                example = {1: f"https://{host}/<organisation>/", 2: f"https://{host}/<kind>/<name>/"}[needed]
                yield engine.origin.problem(
                    f"official URL prefix {prefix} would make every page of {host} primary evidence for {engine.name}",
                    f"name the project's own organisation or package, like {example}", at=("official-urls", i))
            elif not prefix.endswith("/"):
                yield engine.origin.problem(
                    f"official URL prefix {prefix} does not end with /: it also covers {prefix}-anything",
                    f"write {prefix}/", at=("official-urls", i))


# Names the site itself uses: a data id equal to one would overwrite a page or an anchor.
RESERVED_PAGES = frozenset({"index"})  # engines/index.md, features/index.md, compare/index.md
# The ids the templates write themselves (tests/test_site.py checks this list against them).
RESERVED_ANCHORS = frozenset({"sources", "matrix-sources", "needs", "build-yourself", "verdict", "evidence",
                              "where-they-differ", "stacks", "scorecard", "the-engines", "what-do-you-need",
                              "featured", "every-pair", "claim-by-claim", "at-a-glance", "about"})
RESERVED_PREFIXES = ("col-", "need-", "choose-", "build-yourself-", "status-", "engine-", "cite-", "only-",
                     "stack-", "claim-", "rows-", "grid-", "di-")


def id_clash(kind: str, value: str, categories: set = frozenset()) -> str:
    """Why `value` cannot be the id of a `kind`, or ""."""
    if value in RESERVED_PAGES and kind in ("engine", "feature"):
        return f"'{value}' is the name of a hand-written page"
    if kind == "engine" and "-vs-" in value:
        return "an engine id cannot contain '-vs-': comparison pages are named <engine>-vs-<engine>"
    if kind in ("feature", "category", "need") and value in RESERVED_ANCHORS:
        return f"'{value}' is an anchor the site already uses"
    if kind in ("feature", "category") and value.startswith(RESERVED_PREFIXES):
        return f"ids starting '{value.split('-')[0]}-' are anchors the site already uses"
    if kind == "feature" and value in categories:
        return f"'{value}' is already a category id, and both are anchors on one page"
    return ""


@rule
def ids_fit_the_site(catalog, today):
    """Ids and former ids do not take the name of a page or anchor the site already has."""
    categories = {c.id for c in catalog.categories}
    records = [("engine", e) for e in catalog.engines.values()] + [("feature", f) for f in catalog.features.values()]
    records += [("category", c) for c in catalog.categories] + [("need", n) for n in catalog.need_list]
    for kind, record in records:
        for at, value in [(("id",), record.id), *((("former-ids", i), old) for i, old in
                                                  enumerate(getattr(record, "former_ids", [])))]:
            why = id_clash(kind, value, categories)
            if at[0] == "former-ids" and value == record.id:
                why = "it is this record's own id, so its old page would redirect to itself"
            if why:
                yield record.origin.problem(f"{kind} id '{value}' would break the site: {why}",
                                            "choose another id", at=at)


# --- evidence ----------------------------------------------------------------------------

@rule
def statement_cites_a_source(catalog, today):
    """Every statement cites at least one source, except a `not-researched` placeholder."""
    from macros.data.evidence import NOT_RESEARCHED, strength_is

    for statement in catalog.statements():
        if not statement.sources and not strength_is(catalog, statement, NOT_RESEARCHED):
            yield statement.origin.problem("'sources' is empty", "cite at least one source id from data/sources.yml "
                                           "that backs this statement", at=("sources",))


def _field_goes_with_strength(catalog, field: str, strength_id: str, missing: str, tip: str):
    """A statement whose status has this strength needs `field`, and only such a statement may have it."""
    from macros.data.evidence import statuses_of, strength_is

    names = " or ".join(statuses_of(catalog, strength_id)) or strength_id
    for statement in catalog.statements():
        has = bool(getattr(statement, field))
        goes = strength_is(catalog, statement, strength_id)
        if goes and not has:
            yield statement.origin.problem(missing.format(status=statement.status), tip, at=("status",))
        elif has and not goes:
            yield statement.origin.problem(f"`{field}` belongs to a{'n' if names[0] in 'aeiou' else ''} {names} "
                                           f"statement, not a {statement.status} one",
                                           f"remove `{field}`, or set `status: {names.split(' or ')[0]}`", at=(field,))


@rule
def unknown_says_where_searched(catalog, today):
    """An `unknown` lists in `searched` where the project's own docs and code were searched, and only an unknown does."""
    yield from _field_goes_with_strength(
        catalog, "searched", "undocumented", "status is {status}, but `searched` does not say where you looked",
        "add `searched:` with the pages, files or searches of the project's own docs and code that came up empty")


@rule
def not_supported_says_its_basis(catalog, today):
    """A `not-supported` says its `basis` (stated-absent or exhaustive-list), and only a not-supported does."""
    yield from _field_goes_with_strength(
        catalog, "basis", "absent", "status is {status}, but `basis` does not say why",
        "add `basis: stated-absent` (the project says it does not do it) or `basis: exhaustive-list` (its own "
        "list of what it supports leaves it out); if neither holds, the status is unknown")


@rule
def claims_are_not_evidence(catalog, today):
    """A statement whose only sources are claims (the original article) is `unknown`: a claim is not evidence."""
    from macros.data.evidence import is_known

    level = catalog.levels
    for statement in catalog.statements():
        if is_known(catalog, statement) and all(sid in catalog.sources for sid in statement.sources) \
                and level[(statement.engine, statement.feature)] == "claim":
            yield statement.origin.problem(f"status is {statement.status}, but every source is a claim",
                                           "cite the project's docs, code or release notes, or set `status: unknown`",
                                           at=("sources",))


@rule
def primary_source_is_a_page(catalog, today):
    """A statement's only primary source is an exact page, not a bare site root."""
    from macros.data.evidence import is_bare_root, source_level

    for engine in catalog.engines.values():
        for statement in engine.support.values():
            primary = [catalog.sources[sid] for sid in statement.sources
                       if sid in catalog.sources and source_level(catalog.sources[sid], engine) == "primary"]
            if primary and all(is_bare_root(s.url) for s in primary):
                yield statement.origin.problem(f"the only primary source, '{primary[0].id}', is a site's front page "
                                               f"({primary[0].url})", "cite the exact page that says it",
                                               at=("sources",))


# --- the original article --------------------------------------------------------------

def _carrier_tip(catalog, carrier) -> str:
    """A tip for a claim's carrier that names a former engine or feature id, or ""."""
    return "; ".join(filter(None, [renamed_tip(catalog.engines, carrier.engine, "engine: {}"),
                                   renamed_tip(catalog.features, carrier.feature, "feature: {}")]))


@rule
def seed_claims_hold(catalog, today):
    """Each claim of the original article names real statements; one that differs cites the article and says so; the verdict fits."""
    from macros.data.evidence import UNDOCUMENTED, strength_is

    if not catalog.seed_claims:
        return
    source = catalog.sources.get(catalog.seed_source)
    first = catalog.seed_claims[0].origin
    if (source is None or source.kind != "claim") and "sources.yml" not in catalog.unread:
        yield first.doc.problem(("source",), f"'{catalog.seed_source}' is not a source of kind `claim` in data/sources.yml",
                                "name the article's source id")
    for claim in catalog.seed_claims:
        differing, unknown, absent = [], [], False
        for carrier in claim.carried_by:
            engine = catalog.engines.get(carrier.engine, None)
            statement = engine.support.get(carrier.feature) if engine else None
            if statement is None:
                absent = True  # the verdict cannot be judged on part of its statements
                if engine is None or carrier.feature not in catalog.features:  # else the engine's file says what is wrong
                    yield carrier.origin.problem(f"no statement {carrier.engine}/{carrier.feature} to carry this claim",
                                                 _carrier_tip(catalog, carrier) or
                                                 "name an engine id and a feature id from the data")
                continue
            unknown += [statement] if strength_is(catalog, statement, UNDOCUMENTED) else []
            if statement.status not in carrier.implies:
                differing.append(statement)
                mentions = "original article" in statement.detail.lower()
                if catalog.seed_source not in statement.sources or not mentions:
                    yield statement.origin.problem(
                        f"is {statement.status}, but the original article implies {' or '.join(carrier.implies)} "
                        f"(claim '{claim.id}')", f"cite `{catalog.seed_source}` and say in `detail` what the original "
                        "article says, so readers see the difference", at=("detail",))
        fits = {"confirmed": not differing and not claim.refines, "refined": bool(differing) or bool(claim.refines),
                "contradicted": bool(differing), "unverified": bool(unknown)}
        if not fits[claim.verdict] and not absent:
            expected = "unverified" if unknown else ("refined or contradicted" if differing else
                                                     "refined (it says what `refines`)" if claim.refines else "confirmed")
            yield claim.origin.problem(f"verdict '{claim.verdict}' does not fit the statements that carry the claim",
                                       f"they make it {expected}", at=("verdict",))


# --- warnings: printed after the summary, exit 0 --------------------------------------------

WARNINGS = []


def warning(function):
    WARNINGS.append(function)
    return function


def run_warnings(catalog: Catalog, today: dt.date, max_age: int) -> dict[str, list[Problem]]:
    """Warning kind (its one-line description) -> what it found."""
    found = {check.__doc__: list(check(catalog, today, max_age)) for check in WARNINGS}
    return {kind: problems for kind, problems in found.items() if problems}


@warning
def not_researched(catalog, today, max_age):
    """A `not-researched` cell: allowed while an engine is being filled in, counted so it is not forgotten."""
    from macros.data.evidence import NOT_RESEARCHED, strength_is

    for statement in catalog.statements():
        if strength_is(catalog, statement, NOT_RESEARCHED):
            yield statement.origin.problem("not researched yet", "research it: cite the project's docs, or write "
                                           "`unknown` with `searched`", at=("status",))


@warning
def stale_statement(catalog, today, max_age):
    """A statement checked longer ago than the allowed age (`--max-age`, default 180 days)."""
    from macros.data.evidence import NOT_RESEARCHED, age_days, strength_is

    for statement in catalog.statements():
        if not strength_is(catalog, statement, NOT_RESEARCHED) and age_days(statement.checked, today) > max_age:
            yield statement.origin.problem(f"checked {statement.checked}, {age_days(statement.checked, today)} days ago "
                                           f"(more than {max_age})", "read the sources again, update the statement "
                                           "if needed, and set `checked` to today", at=("checked",))



# Hosts where a page names one package or repository: there, a source's version is that project's,
# and it is the engine's release only when the project is one of the engine's release channels
CHANNEL_HOSTS = frozenset({"pypi.org", "github.com"})


def _own_release_source(source, engine) -> bool:
    """The source is the engine's own (primary) and, on PyPI or GitHub, a page of one of its release channels."""
    from urllib.parse import urlsplit

    from macros.data.evidence import source_level

    if source_level(source, engine) != "primary":
        return False  # another engine's docs, a plugin's package: its version is not this engine's
    try:
        host = (urlsplit(source.url).hostname or "").lower()
    except ValueError:
        return False
    if host not in CHANNEL_HOSTS:
        return True
    return any(source.url.lower().startswith(prefix.lower()) for _, prefix in _channel_prefixes(engine))


@dataclass(frozen=True)
class RecordedRelease:
    """A release the data names outside `latest-release`, and where."""

    text: str  # as written: "v1.3.0"
    version: object  # as packaging reads it, for the order
    pre_release: bool
    what: str  # in words: "the version of source 'x'", "the `since` of http-server"
    where: str  # path:line


def recorded_releases(catalog, engine) -> list[RecordedRelease]:
    """Every release the engine's data names outside `latest-release` (its own sources' `version`,
    its statements' `since`, its `release-history`); values that are not versions are left out."""
    cited = [*engine.sources, *(sid for s in engine.support.values() for sid in s.sources),
             *(sid for f in engine.facts() for sid in f.sources)]
    places = []
    for sid in dict.fromkeys(cited):
        source = catalog.sources.get(sid)
        if source is not None and source.version and _own_release_source(source, engine):
            places.append((source.version, False, f"the version of source '{sid}'", source.origin, "version"))
    places += [(s.since, False, f"the `since` of {s.feature}", s.origin, "since")
               for s in engine.support.values() if s.since]
    places += [(r.version, r.pre_release, "in release-history", r.origin, "version") for r in engine.release_history]
    found = []
    for text, flagged, what, origin, field_name in places:
        version = parse_version(text)
        if version is not None:
            line, _ = origin.doc.where(origin.pointer + (field_name,))
            found.append(RecordedRelease(text, version, flagged or version.is_prerelease, what, f"{origin.path}:{line}"))
    return found


def _newest(releases, pre_release: bool, than):
    return max((r for r in releases if r.pre_release == pre_release and r.version > than),
               key=lambda r: r.version, default=None)


@warning
def recorded_release_is_behind(catalog, today, max_age):
    """A recorded latest release is older than one the engine's own data names (a source's `version`, a `since`, release-history)."""
    tip = ("record the newer release in `latest-release` (`make refresh ARGS=--write` does it from the release "
           "channels), or correct the value that names it")
    for engine in catalog.engines.values():
        latest = engine.latest_release
        stable = parse_version(latest.stable.version) if latest else None
        if stable is None or stable.is_prerelease:
            continue  # pre_release_is_newer says what is wrong with a pre-release recorded as stable
        found = recorded_releases(catalog, engine)
        newer = _newest(found, False, stable)
        if newer:
            yield latest.stable.origin.problem(
                f"{engine.name}'s recorded stable release {latest.stable.version} is older than {newer.text}, "
                f"{newer.what} ({newer.where})", tip, at=("version",))
        pre = parse_version(latest.pre_release.version) if latest.pre_release else None
        newer_pre = _newest(found, True, max(v for v in (stable, pre, newer and newer.version) if v))
        if newer_pre and latest.pre_release:
            yield latest.pre_release.origin.problem(
                f"{engine.name}'s recorded pre-release {latest.pre_release.version} is older than "
                f"{newer_pre.text}, {newer_pre.what} ({newer_pre.where})", tip, at=("version",))
        elif newer_pre:
            yield latest.origin.problem(
                f"{engine.name} records no pre-release, but {newer_pre.text}, newer than its stable release "
                f"{latest.stable.version}, is {newer_pre.what} ({newer_pre.where})", tip, key=True)
