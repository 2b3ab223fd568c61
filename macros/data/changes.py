"""The data change of a pull request in plain words, for a reviewer (`python -m macros diff REV`)
and for the feed of data changes.

Both sides are catalogs built by the one loader (macros/data/catalog.py), the revision's data read
tolerantly: an old revision follows older schemas, and every sound part of its records is kept.
The text names everything that changes what the site says: engines and their facts (names,
official URL prefixes and how many cells change evidence level because of them, maintenance,
kind, releases), features, each statement's status, value, detail, sources, since, basis,
searched and scope, sources (titles, addresses, versions, quotes, re-checks), and the guide.
Renames are named as renames, with the old addresses they keep. A status raised without a new
or re-checked primary source is flagged for the reviewer, with the quote its sources carry.

Everything taken from the data is shown as text: Markdown and HTML characters are escaped, so a
name cannot become a link, an image or markup in a pull request's job summary.
"""
from __future__ import annotations

import io
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path

from macros.data.model import Catalog, Engine
from macros.data.problems import printable

# Inline Markdown and HTML that a name could carry into a job summary: links and images, emphasis,
# code, strikethrough, escapes, tags and entities. Addresses become code spans (GitHub links bare URLs).
_MARKDOWN = re.compile(r"([\\`*_\[\]()!~])")
_BARE_URL = re.compile(r"((?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.)\S+)")


class RevisionError(Exception):
    pass


def git_output(root: Path, *args: str) -> str | None:
    """What `git ARGS` prints in `root`, or None when git fails or is missing (outside a checkout)."""
    try:
        # a commit message may hold any bytes: decode what is not UTF-8 as U+FFFD, never fail
        result = subprocess.run(["git", *args], cwd=root, capture_output=True, encoding="utf-8", errors="replace",
                                timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout if result.returncode == 0 else None


def _git(cwd: Path, *args: str) -> bytes:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    if result.returncode != 0:
        raise RevisionError(result.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return result.stdout


def catalog_at(revision: str, data_dir: Path) -> Catalog:
    """The catalog as it was at `revision`, built by the one loader from that revision's files."""
    from macros.data.catalog import read_catalog

    data_dir = Path(data_dir).resolve()
    top = Path(_git(data_dir, "rev-parse", "--show-toplevel").decode().strip())
    inside = data_dir.relative_to(top).as_posix()
    archive = _git(top, "archive", "--format=tar", revision, "--", inside)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            # regular files and folders only: a link or a device in an old revision is never made
            members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
            tar.extractall(tmp, members=members, filter="data")
        return read_catalog(Path(tmp) / inside, tolerant=True)[0]


def code(value) -> str:
    """Data as a Markdown code span, which shows every character as written: a fence longer than
    any run of backticks inside it."""
    shown = printable(value)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def text(value) -> str:
    """Data shown as text in Markdown: every character Markdown or HTML would act on is escaped,
    and an address is a code span, so a name cannot become a link, an image or markup."""
    parts = _BARE_URL.split(printable(value))
    return "".join(code(part) if index % 2 else
                   _MARKDOWN.sub(r"\\\1", part).replace("&", "&amp;").replace("<", "&lt;")
                   for index, part in enumerate(parts))


def _quote(value: str) -> str:
    return f'"{text(value)}"' if value else "(none)"


def _ids(values) -> str:
    return ", ".join(text(v) for v in values)


def _list_change(label: str, old: list, new: list) -> str:
    added = [f"+{text(v)}" for v in new if v not in old]
    removed = [f"-{text(v)}" for v in old if v not in new]
    return f"{label}: {' '.join(added + removed)}" if added or removed else ""


def status_words(catalog: Catalog, status_id: str) -> str:
    """A status as the site shows it: symbol and label from the vocabulary (the id when it has none)."""
    status = catalog.statuses.get(status_id)
    return text(f"{status.symbol} {status.label}" if status else status_id)


def statement_change(old, new, catalog: Catalog | None = None) -> str:
    """`β Experimental -> ✔ Supported; sources: +a -b`, or "" when nothing a reader sees changed."""
    parts = []
    if old.status != new.status:
        parts.append(f"{status_words(catalog, old.status)} -> {status_words(catalog, new.status)} "
                     f"({strength_move(catalog, old.status, new.status)})" if catalog
                     else f"{text(old.status)} -> {text(new.status)}")
    for label in ("value", "since", "basis"):
        if getattr(old, label) != getattr(new, label):
            parts.append(f"{label}: {_quote(getattr(old, label))} -> {_quote(getattr(new, label))}")
    for label, field in (("sources", "sources"), ("searched", "searched"), ("scope", "scope")):
        change = _list_change(label, getattr(old, field), getattr(new, field))
        if change:
            parts.append(change)
    if old.detail != new.detail:
        parts.append("detail reworded")
    if parts and old.checked != new.checked:
        parts.append(f"checked {text(new.checked)}")
    elif not parts and old.checked != new.checked:
        parts.append(f"re-checked {text(old.checked)} -> {text(new.checked)}, no change")
    return "; ".join(parts)


def unbacked_raise(old: Catalog, new: Catalog, engine, before, after) -> bool:
    """The status went up, and no primary source of the statement is new or read again since."""
    from macros.data.evidence import source_level

    # raised: a higher strength score (data/schema/status.schema.json) than before
    def score(status_id):
        status = new.statuses.get(status_id) or old.statuses.get(status_id)
        return status.strength.score if status else 0

    if score(after.status) <= score(before.status):
        return False
    for sid in after.sources:
        source = new.sources.get(sid)
        if source is None or source_level(source, engine) != "primary":
            continue
        previous = old.sources.get(sid)
        if sid not in before.sources or previous is None or previous.checked != source.checked:
            return False
    return True


def strength_move(catalog: Catalog, before: str, after: str) -> str:
    """`beta -> full support`: the strengths of two statuses, from the vocabulary."""
    def label(status_id):
        status = catalog.statuses.get(status_id)
        return status.strength.label.lower() if status else "no strength"
    return f"{text(label(before))} -> {text(label(after))}"


def quotes(catalog: Catalog, statement) -> str:
    found = [f'"{text(catalog.sources[s].quote)}" ({text(s)})' for s in statement.sources
             if s in catalog.sources and catalog.sources[s].quote]
    return "; ".join(found)


def _level_changes(old: Catalog, new: Catalog, engine_id: str) -> list[str]:
    """Cells of an engine whose evidence level differs between the two catalogs."""
    before, after = old.levels, new.levels
    return [f"{k[1]}: {before[k]} -> {after[k]}" for k in sorted(after) if k[0] == engine_id and k in before
            and before[k] != after[k]]


def _release(release) -> str:
    return f"{text(release.version)} ({text(release.date) or 'no date'})" if release else "(none)"


def _fact_changes(a: Engine, b: Engine) -> list[str]:
    """What changed in an engine's own fields and facts, one phrase each."""
    found = []
    for label in ("summary", "homepage", "repository", "license"):
        if getattr(a, label) != getattr(b, label):
            found.append(f"{label}: {_quote(getattr(a, label))} -> {_quote(getattr(b, label))}"
                         if label != "summary" else "summary reworded")
    for label, field in (("official-urls", "official_urls"), ("sources", "sources"),
                         ("featured comparisons", "featured"), ("former ids", "former_ids")):
        change = _list_change(label, getattr(a, field), getattr(b, field))
        if change:
            found.append(change)
    ma, mb = a.maintenance, b.maintenance
    if (ma and (ma.value, ma.detail, ma.sources)) != (mb and (mb.value, mb.detail, mb.sources)):
        found.append(f"maintenance: {text(ma.value) if ma else '(none)'} -> {text(mb.value) if mb else '(none)'}")
    ka, kb = a.kind, b.kind
    if (ka and (ka.value, ka.detail, [(p.engine, p.version) for p in ka.packages])) != \
            (kb and (kb.value, kb.detail, [(p.engine, p.version) for p in kb.packages])):
        found.append(f"kind: {text(ka.value) if ka else '(none)'} -> {text(kb.value) if kb else '(none)'}")
    ca, cb = a.releases, b.releases
    if (ca and (ca.pypi, ca.github)) != (cb and (cb.pypi, cb.github)):
        def shown(c):
            return ", ".join([*(f"PyPI {text(p)}" for p in c.pypi), *([f"GitHub {text(c.github)}"] if c.github else [])]) \
                if c else "(none)"
        found.append(f"release channels: {shown(ca)} -> {shown(cb)}")
    for label, pick in (("stable release", lambda e: e.latest_release.stable if e.latest_release else None),
                        ("pre-release", lambda e: e.latest_release.pre_release if e.latest_release else None)):
        ra, rb = pick(a), pick(b)
        if (ra and (ra.version, ra.date)) != (rb and (rb.version, rb.date)):
            found.append(f"{label}: {_release(ra)} -> {_release(rb)}")
    return found


def _renamed_from(record, old_ids) -> str | None:
    """The former id of `record` that the old catalog had, if this is a rename."""
    return next((o for o in record.former_ids if o in old_ids), None)


def describe(old: Catalog, new: Catalog) -> str:
    sections: dict[str, list[str]] = {"Look closer": [], "Engines": [], "Features": [], "Statements": [], "Sources": [],
                                      "Guide": []}
    engines, features, statements, sources, guide = (sections[k] for k in
                                                     ("Engines", "Features", "Statements", "Sources", "Guide"))
    feature_name = {**{f.id: f.name for f in old.features.values()}, **{f.id: f.name for f in new.features.values()}}

    # --- engines: renames, additions (with every statement), removals, facts ---
    renamed = {}
    for engine in new.engines.values():
        if engine.id not in old.engines and (was := _renamed_from(engine, old.engines)):
            renamed[engine.id] = was
            engines.append(f"- Renamed: {code(was)} -> {code(engine.id)} ({text(engine.name)}); the old pages "
                           f"/engines/{text(was)}/ and its comparisons redirect to the new ones")
    for eid in new.engines.keys() - old.engines.keys() - renamed.keys():
        engine = new.engines[eid]
        cells = ", ".join(f"{text(feature_name.get(f, f))}: {text(s.status)}" for f, s in engine.support.items())
        engines.append(f"- Added: {text(engine.name)} ({code(eid)}), {len(engine.support)} statements: {cells}")
    for eid in old.engines.keys() - new.engines.keys() - set(renamed.values()):
        engines.append(f"- Removed: {text(old.engines[eid].name)} ({code(eid)})")
    for engine in new.engines.values():
        before = old.engines.get(renamed.get(engine.id, engine.id))
        if before is None:
            continue
        if before.name != engine.name:
            engines.append(f"- Retitled: {code(engine.id)}: {_quote(before.name)} -> {_quote(engine.name)}")
        facts = _fact_changes(before, engine)
        if facts:
            engines.append(f"- {text(engine.name)}: " + "; ".join(facts))
        if before.official_urls != engine.official_urls:
            moved = _level_changes(old, new, engine.id) if before.id == engine.id else []
            sections["Look closer"].append(
                f"- {text(engine.name)}: official-urls changed ({_list_change('prefixes', before.official_urls, engine.official_urls)}); "
                f"{len(moved)} cells change evidence level" + (f": {text('; '.join(moved[:10]))}" if moved else "")
                + (" ..." if len(moved) > 10 else ""))
        for fid, statement in engine.support.items():
            previous = before.support.get(fid) or next(
                (before.support[o] for o in getattr(new.features.get(fid), "former_ids", []) if o in before.support), None)
            if previous is not None and (change := statement_change(previous, statement, new)):
                statements.append(f"- {text(engine.name)} / {text(feature_name.get(fid, fid))}: {change}")
                if unbacked_raise(old, new, engine, previous, statement):
                    sections["Look closer"].append(
                        f"- {text(engine.name)} / {text(feature_name.get(fid, fid))}: raised "
                        f"{status_words(new, previous.status)} -> {status_words(new, statement.status)} "
                        f"({strength_move(new, previous.status, statement.status)}) without a new or re-checked primary source "
                        f"({', '.join(code(s) for s in statement.sources)}): "
                        + (quotes(new, statement) or "no source carries a quote; open them to confirm"))

    # --- features ---
    for fid in new.features.keys() - old.features.keys():
        feature = new.features[fid]
        was = _renamed_from(feature, old.features)
        if was:
            features.append(f"- Renamed: {code(was)} -> {code(fid)} ({text(feature.name)}); /features/{text(was)}/ "
                            f"redirects here and the #{text(was)} anchors keep working")
        else:
            features.append(f"- Added: {text(feature.name)} ({code(fid)}) in {text(feature.category)}")
    gone = old.features.keys() - new.features.keys()
    kept_as_former = {o for f in new.features.values() for o in f.former_ids}
    retired = {r.id: r for r in new.retired}
    for fid in gone - kept_as_former:
        how = f"; retired: it became {_ids(retired[fid].became)}" if fid in retired else ""
        features.append(f"- Removed: {text(old.features[fid].name)} ({code(fid)}){how}")
    for fid in new.features.keys() & old.features.keys():
        a, b = old.features[fid], new.features[fid]
        changed = [label for label, x, y in (("name", a.name, b.name), ("description", a.description, b.description),
                                             ("category", a.category, b.category)) if x != y]
        if changed:
            features.append(f"- Changed: {text(b.name)} ({code(fid)}): {', '.join(changed)}"
                            + (f" ({_quote(a.name)} -> {_quote(b.name)})" if "name" in changed else ""))

    # --- sources ---
    for sid in new.sources.keys() - old.sources.keys():
        sources.append(f"- Added: {code(sid)}, {text(new.sources[sid].title)}")
    for sid in old.sources.keys() - new.sources.keys():
        sources.append(f"- Removed: {code(sid)}, {text(old.sources[sid].title)}")
    for sid in new.sources.keys() & old.sources.keys():
        a, b = old.sources[sid], new.sources[sid]
        if (a.url, a.page) != (b.url, b.page):
            sources.append(f"- Moved: {code(sid)}: {text(a.url or a.page)} -> {text(b.url or b.page)}")
        if a.title != b.title:
            sources.append(f"- Retitled: {code(sid)}: {_quote(a.title)} -> {_quote(b.title)}")
        for label in ("publisher", "kind", "version", "commit", "quote"):
            if getattr(a, label) != getattr(b, label):
                sources.append(f"- Changed: {code(sid)}: {label} {_quote(getattr(a, label))} -> "
                               f"{_quote(getattr(b, label))}")
        if a.checked != b.checked:
            sources.append(f"- Re-checked: {code(sid)}: {text(a.checked)} -> {text(b.checked)}")

    # --- guide ---
    old_needs, new_needs = {n.id: n for n in old.needs}, {n.id: n for n in new.needs}
    for nid in new_needs.keys() - old_needs.keys():
        guide.append(f"- Added need: {text(new_needs[nid].label)} ({code(nid)})")
    for nid in old_needs.keys() - new_needs.keys():
        guide.append(f"- Removed need: {text(old_needs[nid].label)} ({code(nid)})")
    for nid in new_needs.keys() & old_needs.keys():
        a, b = old_needs[nid], new_needs[nid]
        req = [(r.feature, tuple(r.statuses)) for r in a.requires], [(r.feature, tuple(r.statuses)) for r in b.requires]
        changed = [label for label, x, y in (("label", a.label, b.label), ("why", a.why, b.why),
                                             ("what it requires", req[0], req[1]), ("match", a.match, b.match)) if x != y]
        if changed:
            guide.append(f"- Changed need: {text(b.label)} ({code(nid)}): {', '.join(changed)}")
    old_gaps, new_gaps = {g.feature: g.supply for g in old.gaps}, {g.feature: g.supply for g in new.gaps}
    for fid in sorted(old_gaps.keys() | new_gaps.keys()):
        if old_gaps.get(fid) != new_gaps.get(fid):
            guide.append(f"- Build yourself, {text(feature_name.get(fid, fid))}: "
                         + ("added" if fid not in old_gaps else "removed" if fid not in new_gaps else "reworded"))

    lines = ["## Data changes", ""]
    for title, items in sections.items():
        if items:
            lines += [f"### {title}", "", *sorted(items), ""]
    if len(lines) == 2:
        lines += ["No change to the data.", ""]
    return "\n".join(lines)
