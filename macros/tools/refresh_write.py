"""`make refresh --write`: record what the channels publish, in place, keeping every comment and the
key order (the ruamel.yaml writer of `make fmt`).

Per engine whose every channel answered, it updates `latest-release` (the stable release, and the
pre-release when one is newer), each entry citing the release's public page, and keeps
`release-history`, the dated list of releases it saw. It never touches a statement, never goes
back to an older version, and a second run with the same answers changes nothing. A source that
only backed the entry it replaced is removed (an uncited source fails `make check`). Before a
file is written, the whole result is checked like `make check` in a copy of the data: data that
would fail is never written.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from macros.data.canonical import dump, round_trip_yaml, write_in_place
from macros.data.catalog import ENGINES, SCHEMA_DIR, build_catalog
from macros.data.model import Catalog, Engine, Release
from macros.data.problems import DataError
from macros.data.rules import latest_today_on_earth
from macros.data.schema import load_schemas
from macros.tools.refresh import EngineReport, Report
from macros.tools.releases import Found, version_key

HISTORY_DAYS = 365  # release-history keeps the releases of the last year it saw (and every entry already there)


@dataclass
class Plan:
    """What --write records for one engine. None for an entry means: leave it as it is."""

    engine: Engine
    stable: Found | None = None  # a newer stable release to record
    stable_date: Found | None = None  # the same version as recorded, whose date was missing
    pre_release: Found | None = None  # a newer pre-release to record
    pre_release_date: Found | None = None
    drop_pre_release: bool = False  # the recorded pre-release is no longer newer than the stable one
    history: list[Found] = field(default_factory=list)  # releases to add to release-history

    @property
    def changes(self) -> bool:
        return bool(self.stable or self.stable_date or self.pre_release or self.pre_release_date
                    or self.drop_pre_release or self.history)

    def cited(self) -> list[Found]:
        """The releases whose pages the new entries cite."""
        return [r for r in (self.stable, self.stable_date, self.pre_release, self.pre_release_date) if r]


@dataclass
class Outcome:
    written: list[str] = field(default_factory=list)  # one line per change, for the operator
    problems: str = ""  # set when nothing was written because the result would fail the checks


# --- deciding --------------------------------------------------------------------------------------

def _key(release: Release | None):
    return version_key(release.version) if release else None


def plan_engine(report: EngineReport, today: dt.date) -> Plan:
    """What to record for one engine, from the releases found; never an older version than recorded."""
    plan = Plan(report.engine)
    latest = report.engine.latest_release
    found_stable, found_pre = report.newest_stable, report.newest_pre_release
    recorded, recorded_pre = (latest.stable, latest.pre_release) if latest else (None, None)
    stable_key = _key(recorded)
    if found_stable and (recorded is None or stable_key is None or found_stable.key > stable_key):
        plan.stable, stable_key = found_stable, found_stable.key
    elif found_stable and found_stable.key == stable_key and not recorded.date:
        plan.stable_date = found_stable
    pre_key = _key(recorded_pre)
    has_stable = recorded is not None or plan.stable is not None  # a pre-release alone is no latest-release
    if found_pre and has_stable and (stable_key is None or found_pre.key > stable_key):
        if recorded_pre is None or pre_key is None or found_pre.key > pre_key:
            plan.pre_release = found_pre
        elif found_pre.key == pre_key and not recorded_pre.date:
            plan.pre_release_date = found_pre
    if recorded_pre and not plan.pre_release and stable_key is not None and (pre_key is None or pre_key <= stable_key):
        plan.drop_pre_release = True
    seen = {version_key(r.version) for r in report.engine.release_history}
    since = (today - dt.timedelta(days=HISTORY_DAYS)).isoformat()
    plan.history = [r for r in report.found if r.key not in seen and r.date >= since]
    return plan


def plans(report: Report) -> list[Plan]:
    """A plan for every engine whose channels all answered and that has something new."""
    found = [plan_engine(r, report.today) for r in report.engines.values() if r.complete and r.found]
    return [plan for plan in found if plan.changes]


# --- the sources the new entries cite --------------------------------------------------------------

def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def source_prefix(engine: Engine) -> str:
    """The id prefix of the engine's own sources ("trtllm" for TensorRT-LLM), or its id."""
    ids = [sid for sid in engine.sources if "-" in sid]
    if len(ids) >= 2:
        common = ids[0].split("-")
        for sid in ids[1:]:
            parts = sid.split("-")
            while common and parts[:len(common)] != common:
                common = common[:-1]
        if common:
            return "-".join(common)
    return engine.id


def written_version(release: Found, recorded: Release | None) -> str:
    """The version as the data writes it: with the recorded entry's leading `v` when it had one."""
    if recorded and recorded.version[:1] in "vV" and release.version[:1] not in "vV":
        return f"v{release.version}"
    return release.version


def new_source(release: Found, engine: Engine, version: str, source_id: str, today: dt.date) -> dict:
    """A source citing a release's public page, in the schema's key order."""
    if release.channel == "pypi":
        fields = {"title": f"{release.name} {release.version} on PyPI", "publisher": "PyPI", "kind": "package-index",
                  "note": f"Upload date {release.date} from the package index's JSON API, recorded by "
                          "`make refresh --write`."}
    else:
        kind = " (pre-release)" if release.pre_release else ""
        fields = {"title": f"{engine.name} {release.version}{kind}", "publisher": f"{engine.name} project",
                  "kind": "release-notes",
                  "note": f"Publication date {release.date} from GitHub's releases API, recorded by "
                          "`make refresh --write`."}
    return {"id": source_id, "title": fields["title"], "url": release.page, "publisher": fields["publisher"],
            "kind": fields["kind"], "version": version, "checked": dt.date(today.year, today.month, today.day),
            "note": fields["note"]}  # a new date each time: one object written twice becomes a YAML alias


@dataclass
class SourcePlan:
    ids: dict = field(default_factory=dict)  # (engine id, release page) -> the source id to cite
    added: list = field(default_factory=list)  # (engine, new source dict)
    removed: list = field(default_factory=list)  # source ids no longer cited


def plan_sources(catalog: Catalog, engine_plans: list[Plan], today: dt.date) -> SourcePlan:
    """The source each new entry cites: an existing one with the same URL, or a new one."""
    result = SourcePlan()
    by_url = {s.url: s.id for s in catalog.source_list if s.url}
    taken = set(catalog.sources)
    for plan in engine_plans:
        latest = plan.engine.latest_release
        for release in plan.cited():
            if release.page in by_url:
                result.ids[(plan.engine.id, release.page)] = by_url[release.page]
                continue
            recorded = latest.stable if latest else None
            kind = "pypi" if release.channel == "pypi" else "release"
            base = f"{source_prefix(plan.engine)}-{kind}-{_slug(release.version)}"
            source_id, n = base, 2
            while source_id in taken:
                source_id, n = f"{base}-{n}", n + 1
            taken.add(source_id)
            by_url[release.page] = source_id
            result.ids[(plan.engine.id, release.page)] = source_id
            result.added.append((plan.engine, new_source(release, plan.engine, written_version(release, recorded),
                                                         source_id, today)))
    result.removed = orphaned_sources(catalog, engine_plans, result)
    return result


def orphaned_sources(catalog: Catalog, engine_plans: list[Plan], sources: SourcePlan) -> list[str]:
    """Sources that only the replaced entries cited, and so would be cited by nothing."""
    replaced = {}  # (engine id, "stable" or "pre-release") -> the entry's old sources
    for plan in engine_plans:
        latest = plan.engine.latest_release
        if latest and plan.stable:
            replaced[(plan.engine.id, "stable")] = latest.stable.sources
        if latest and latest.pre_release and (plan.pre_release or plan.drop_pre_release):
            replaced[(plan.engine.id, "pre-release")] = latest.pre_release.sources
    cited = set(sources.ids.values())
    for engine in catalog.engines.values():
        cited |= set(engine.sources) | {sid for s in engine.support.values() for sid in s.sources}
        facts = [engine.maintenance, engine.kind]
        if engine.latest_release:
            facts += [r for name, r in (("stable", engine.latest_release.stable),
                                        ("pre-release", engine.latest_release.pre_release))
                      if r and (engine.id, name) not in replaced]
        cited |= {sid for fact in facts if fact for sid in fact.sources}
    old = [sid for ids in replaced.values() for sid in ids]
    return sorted({sid for sid in old if sid not in cited and sid in catalog.sources})


# --- editing the YAML in place ---------------------------------------------------------------------

def _orders() -> dict:
    engine = load_schemas(SCHEMA_DIR)["engine.schema.json"]
    sources = load_schemas(SCHEMA_DIR)["sources.schema.json"]
    return {"engine": list(engine["properties"]), "latest": list(engine["properties"]["latest-release"]["properties"]),
            "release": list(engine["$defs"]["release"]["properties"]),
            "history": list(engine["properties"]["release-history"]["items"]["properties"]),
            "source": list(sources["properties"]["sources"]["items"]["properties"])}


def put(mapping, key: str, value, order: list[str]) -> None:
    """Set `key`, keeping its place (and comments) when present; else insert it where the schema's
    order puts it."""
    if key in mapping:
        mapping[key] = value
        return
    rank = order.index(key) if key in order else len(order)
    position = sum(1 for k in mapping if (order.index(k) if k in order else len(order)) < rank)
    mapping.insert(position, key, value)


def _flow_list(items: list, like=None):
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq(items)
    if like is None or getattr(like, "fa", None) is None or like.fa.flow_style():
        seq.fa.set_flow_style()
    return seq


def _set_sources(entry, ids: list[str], orders: dict) -> None:
    """The entry's `sources`, changed in the list itself so its style and comments stay."""
    current = entry.get("sources")
    if current is not None and hasattr(current, "fa"):
        del current[:]
        current.extend(ids)
    else:
        put(entry, "sources", _flow_list(ids), orders["release"])


def _record(latest, name: str, release: Found, version: str, source_id: str, replace: bool, orders: dict) -> None:
    """Write one entry of latest-release: a new release (replace) or the date of the same one."""
    from ruamel.yaml.comments import CommentedMap

    entry = latest.get(name)
    if entry is None:
        entry = CommentedMap()
        put(latest, name, entry, orders["latest"])
    if replace:
        put(entry, "version", version, orders["release"])
    put(entry, "date", dt.date.fromisoformat(release.date), orders["release"])
    old = [] if replace else [sid for sid in entry.get("sources", []) if sid != source_id]
    _set_sources(entry, [*old, source_id], orders)


def _history(data, plan: Plan, orders: dict) -> None:
    """Add the new releases to release-history, newest first, leaving the entries already there."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    history = data.get("release-history")
    if history is None:
        history = CommentedSeq()
        put(data, "release-history", history, orders["engine"])
    for release in plan.history:
        item = CommentedMap([("version", release.version), ("date", dt.date.fromisoformat(release.date))])
        if release.pre_release:
            item["pre-release"] = True
        item.fa.set_flow_style()
        history.append(item)
    keyed = sorted(history, key=lambda item: (str(item.get("date", "")), version_key(str(item.get("version", "")))
                                              or version_key("0")), reverse=True)
    if list(keyed) != list(history):
        del history[:]
        history.extend(keyed)


def edit_engine(text: str, plan: Plan, sources: SourcePlan, orders: dict) -> str:
    """The engine file with the plan applied; statements are never read, let alone written."""
    from ruamel.yaml.comments import CommentedMap

    yaml = round_trip_yaml()
    data = yaml.load(text)
    latest = data.get("latest-release")
    if latest is None and plan.cited():
        latest = CommentedMap()
        put(data, "latest-release", latest, orders["engine"])
    recorded = plan.engine.latest_release.stable if plan.engine.latest_release else None
    cite = lambda release: sources.ids[(plan.engine.id, release.page)]  # noqa: E731
    for name, new, same in (("stable", plan.stable, plan.stable_date),
                            ("pre-release", plan.pre_release, plan.pre_release_date)):
        if new:
            _record(latest, name, new, written_version(new, recorded), cite(new), True, orders)
        elif same:
            _record(latest, name, same, "", cite(same), False, orders)
    if plan.drop_pre_release and latest is not None and "pre-release" in latest:
        del latest["pre-release"]
    if plan.history:
        _history(data, plan, orders)
    return dump(yaml, data)


def _trailing_comment(item):
    """The comment after a source's last line (often the next group's heading), or None."""
    last = list(item)[-1] if len(item) else None
    comments = item.ca.items.get(last) if last is not None else None
    return comments[2] if comments and len(comments) > 2 else None


def _remove_source(seq, index: int) -> None:
    """Remove one source, handing the comment after it (a group heading) to the source before."""
    token = _trailing_comment(seq[index])
    if token is not None and index > 0:
        before = seq[index - 1]
        last = list(before)[-1]
        held = _trailing_comment(before)
        if held is not None:
            held.value = held.value + token.value[1:]
        else:
            slots = before.ca.items.setdefault(last, [None, None, None, None])
            slots[2] = token
    del seq[index]


def edit_sources(text: str, sources: SourcePlan, orders: dict) -> str:
    """sources.yml with the new sources among their engine's, and the orphaned ones removed."""
    from ruamel.yaml.comments import CommentedMap

    yaml = round_trip_yaml()
    data = yaml.load(text)
    seq = data["sources"]
    for engine, source in sources.added:
        ids = [item.get("id") for item in seq]
        cited = set(engine.sources)
        if engine.latest_release:
            cited |= {sid for r in (engine.latest_release.stable, engine.latest_release.pre_release) if r
                      for sid in r.sources}
        at = next((i for i, sid in enumerate(ids) if sid in cited), len(seq))
        item = CommentedMap()
        for key in orders["source"]:
            if key in source:
                item[key] = source[key]
        seq.insert(at, item)
    for source_id in sources.removed:
        ids = [item.get("id") for item in seq]
        if source_id in ids:
            _remove_source(seq, ids.index(source_id))
    return dump(yaml, data)


# --- writing -----------------------------------------------------------------------------------------

def _describe(plan: Plan) -> list[str]:
    latest = plan.engine.latest_release
    recorded = latest.stable if latest else None
    lines = []
    if plan.stable:
        was = latest.stable.version if latest else "none"
        lines.append(f"{plan.engine.id}: stable {was} -> {written_version(plan.stable, recorded)} ({plan.stable.date})")
    if plan.stable_date:
        lines.append(f"{plan.engine.id}: stable {plan.stable_date.version} dated {plan.stable_date.date}")
    if plan.pre_release:
        was = latest.pre_release.version if latest and latest.pre_release else "none"
        lines.append(f"{plan.engine.id}: pre-release {was} -> {written_version(plan.pre_release, recorded)} "
                     f"({plan.pre_release.date})")
    if plan.pre_release_date:
        lines.append(f"{plan.engine.id}: pre-release {plan.pre_release_date.version} dated {plan.pre_release_date.date}")
    if plan.drop_pre_release:
        lines.append(f"{plan.engine.id}: pre-release {latest.pre_release.version} removed: the stable release is newer")
    if plan.history:
        lines.append(f"{plan.engine.id}: {len(plan.history)} releases added to release-history")
    return lines


def write(catalog: Catalog, report: Report, data_dir: Path) -> Outcome:
    """Apply every plan to the data files, after checking the result in a copy of the data."""
    engine_plans = plans(report)
    outcome = Outcome()
    if not engine_plans:
        return outcome
    sources = plan_sources(catalog, engine_plans, report.today)
    orders = _orders()
    texts: dict[Path, str] = {}
    for plan in engine_plans:
        path = data_dir / ENGINES / f"{plan.engine.file_stem}.yml"
        texts[path] = edit_engine(path.read_text(encoding="utf-8"), plan, sources, orders)
        outcome.written += _describe(plan)
    if sources.added or sources.removed:
        path = data_dir / "sources.yml"
        texts[path] = edit_sources(path.read_text(encoding="utf-8"), sources, orders)
        outcome.written += [f"sources: added {source['id']} ({source['url']})" for _, source in sources.added]
        outcome.written += [f"sources: removed {sid}: it backed only the entry it replaced" for sid in sources.removed]
    problems = problems_after(data_dir, texts, report.today)
    if problems:
        return Outcome(problems=problems)
    for path, text in texts.items():
        write_in_place(path, text)
    return outcome


def problems_after(data_dir: Path, texts: dict[Path, str], today: dt.date) -> str:
    """The `make check` problems the data would have with `texts` written ("" when none)."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "data"
        shutil.copytree(data_dir, copy, symlinks=True)
        for path, text in texts.items():
            (copy / path.relative_to(data_dir)).write_text(text, encoding="utf-8")
        try:
            build_catalog(copy, today=max(today, latest_today_on_earth()), shown_from=Path(scratch))
        except DataError as error:
            return str(error)
    return ""
