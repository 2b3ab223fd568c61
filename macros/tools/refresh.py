"""`make refresh`: what each engine's release channels publish now, against what the data records.

Per engine: the recorded stable release and pre-release, the newest of each found, how many
releases are newer than the recorded stable one, how many statements were checked before the
newest release came out, and the cadence (releases in the last 90 days, the median days between
them). A channel that fails is an entry in `errors`, and the other engines are still reported.
`--write` (macros/tools/refresh_write.py) records what was found.
"""
from __future__ import annotations

import datetime as dt
import itertools
import statistics
from dataclasses import dataclass, field

from macros.data.model import Catalog, Engine, Release
from macros.data.problems import printable
from macros.tools.http import Client
from macros.tools.releases import ChannelError, Found, github_releases, merged, pypi_releases, version_key

CADENCE_DAYS = 90


@dataclass
class EngineReport:
    """What refresh learnt about one engine."""

    engine: Engine
    found: list[Found] = field(default_factory=list)  # newest first, one per version
    failed: list[str] = field(default_factory=list)  # a message per channel that gave no answer
    asked: int = 0  # channels asked

    @property
    def complete(self) -> bool:
        """Every channel answered: only then may --write record what was found."""
        return not self.failed

    @property
    def answered(self) -> bool:
        return self.asked > len(self.failed)

    @property
    def newest_stable(self) -> Found | None:
        return next((r for r in self.found if not r.pre_release), None)

    @property
    def newest_pre_release(self) -> Found | None:
        """The newest pre-release, when it is newer than the newest stable release."""
        stable = self.newest_stable
        return next((r for r in self.found if r.pre_release and (stable is None or r.key > stable.key)), None)

    @property
    def newest(self) -> Found | None:
        return self.found[0] if self.found else None


@dataclass
class Report:
    engines: dict[str, EngineReport]
    errors: list[tuple[str, str]]  # (engine id, message)
    today: dt.date
    unchecked: list[str] = field(default_factory=list)  # engines whose data names no channel
    not_asked: list[str] = field(default_factory=list)  # engines with no channel of the kinds asked (--only)


def _jobs(engine: Engine, bases: dict, token: str) -> list:
    """One job per channel of the engine: (engine id, a function that returns its releases)."""
    channels = engine.releases
    if channels is None:
        return []
    jobs = [(engine.id, lambda client, name=name: pypi_releases(client, bases["pypi"], name))
            for name in (channels.pypi if "pypi" in bases else [])]
    if channels.github and "github" in bases:
        jobs.append((engine.id, lambda client: github_releases(client, bases["github"], channels.github, token)))
    return jobs


def run(catalog: Catalog, client: Client, bases: dict, token: str, today: dt.date) -> Report:
    """Ask every channel of every engine, a few at a time, and gather the answers per engine."""
    jobs = [job for engine in catalog.engines.values() for job in _jobs(engine, bases, token)]
    asked = {engine_id for engine_id, _ in jobs}

    def ask(job):
        engine_id, fetch = job
        try:
            return engine_id, fetch(client), None
        except ChannelError as error:
            return engine_id, [], redact(str(error), token)

    reports = {e.id: EngineReport(e) for e in catalog.engines.values() if e.id in asked}
    gathered: dict[str, list[Found]] = {engine_id: [] for engine_id in reports}
    errors = []
    for engine_id, found, error in client.map(ask, jobs):
        reports[engine_id].asked += 1
        gathered[engine_id] += found
        if error:
            reports[engine_id].failed.append(error)
            errors.append((engine_id, error))
    for engine_id, report in reports.items():
        report.found = merged(gathered[engine_id])
    unchecked = sorted(e.id for e in catalog.engines.values() if e.releases is None)
    not_asked = sorted(e.id for e in catalog.engines.values() if e.releases is not None and e.id not in asked)
    return Report(reports, errors, today, unchecked, not_asked)


def redact(text: str, secret: str) -> str:
    """`text` with the token, should a server echo it, blotted out."""
    return text.replace(secret, "***") if secret else text


# --- the figures ---------------------------------------------------------------------------------

def behind(report: EngineReport) -> int | None:
    """Releases found that are newer than the recorded stable one (all of them when none is recorded)."""
    latest = report.engine.latest_release
    if not report.answered:
        return None
    if latest is None:
        return len(report.found)
    recorded = version_key(latest.stable.version)
    return None if recorded is None else sum(1 for r in report.found if r.key > recorded)


def stale_statements(report: EngineReport) -> int | None:
    """Statements (not placeholders) checked before the day the newest release came out."""
    newest = report.newest
    if newest is None:
        return None
    return sum(1 for s in report.engine.support.values() if s.status != "not-researched" and s.checked < newest.date)


def recent_days(report: EngineReport, today: dt.date) -> list[dt.date]:
    """The days of the releases of the last 90 days, oldest first."""
    since = today - dt.timedelta(days=CADENCE_DAYS)
    days = (dt.date.fromisoformat(r.date) for r in report.found)
    return sorted(day for day in days if since <= day <= today)


def median_days(days: list[dt.date]) -> float | None:
    """The median gap, in days, between consecutive releases (None with fewer than two)."""
    gaps = [(b - a).days for a, b in itertools.pairwise(days)]
    return round(float(statistics.median(gaps)), 1) if gaps else None


def _release(release: Release | Found | None) -> dict | None:
    return None if release is None else {"version": release.version, "date": release.date or None}


def engine_json(report: EngineReport, today: dt.date) -> dict:
    latest = report.engine.latest_release
    days = recent_days(report, today) if report.answered else None
    return {
        "recorded_stable": _release(latest.stable if latest else None),
        "recorded_pre_release": _release(latest.pre_release if latest else None),
        "newest_stable": _release(report.newest_stable),
        "newest_pre_release": _release(report.newest_pre_release),
        "behind": behind(report),
        "stale_statements": stale_statements(report),
        "releases_90d": None if days is None else len(days),
        "median_days": None if days is None else median_days(days),
    }


def as_json(report: Report) -> dict:
    """The report as the issue defines it: {"engines": {...}, "errors": [{"engine", "message"}]}."""
    return {"engines": {eid: engine_json(r, report.today) for eid, r in sorted(report.engines.items())},
            "errors": [{"engine": eid, "message": message} for eid, message in report.errors]}


# --- the text ------------------------------------------------------------------------------------

def _shown(release: dict | None, none: str = "none") -> str:
    if release is None:
        return none
    return f"{release['version']} ({release['date'] or 'no date'})"


def engine_text(report: EngineReport, figures: dict) -> list[str]:
    engine = report.engine
    channels = [f"pypi {name}" for name in engine.releases.pypi]
    channels += [f"github {engine.releases.github}"] if engine.releases.github else []
    lines = [f"{engine.id} ({', '.join(channels)})",
             f"  recorded  stable {_shown(figures['recorded_stable'])}, "
             f"pre-release {_shown(figures['recorded_pre_release'])}"]
    if not report.answered:
        return lines + ["  found     nothing: no channel answered (see the errors below)"]
    lines.append(f"  found     stable {_shown(figures['newest_stable'])}, "
                 f"pre-release {_shown(figures['newest_pre_release'], 'none newer')}")
    if figures["behind"] is not None:
        lines.append(f"  behind    {figures['behind']} release{'s' if figures['behind'] != 1 else ''} newer than "
                     "the recorded stable one")
    if figures["stale_statements"] is not None:
        lines.append(f"  stale     {figures['stale_statements']} of {len(engine.support)} statements checked before "
                     f"{report.newest.date}, when {report.newest.version} came out")
    gap = figures["median_days"]
    lines.append(f"  cadence   {figures['releases_90d']} releases in the last {CADENCE_DAYS} days"
                 + (f", a median of {gap:g} days apart" if gap is not None else ""))
    return lines


def as_text(report: Report) -> str:
    data = as_json(report)
    lines = []
    for eid, engine_report in sorted(report.engines.items()):
        lines += engine_text(engine_report, data["engines"][eid])
    lines += [f"error: {eid}: {message}" for eid, message in report.errors]
    if report.unchecked:
        lines.append(f"not checked (their data names no `releases:` channel): {', '.join(report.unchecked)}")
    if report.not_asked:
        lines.append(f"not asked (no channel of the kinds asked): {', '.join(report.not_asked)}")
    asked = sum(r.asked for r in report.engines.values())
    lines.append(f"{len(report.engines)} engines, {asked} channels asked, {len(report.errors)} failed")
    return "\n".join(printable(line) for line in lines)


def exit_code(report: Report) -> int:
    """0 when every channel answered, 2 otherwise."""
    return 2 if report.errors else 0
