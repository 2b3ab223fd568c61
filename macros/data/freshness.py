"""How current an engine's data is, in releases, from what the data records (never the network).

`latest-release` says which stable release the data was checked against; `release-history`
(kept by `make refresh --write`) says how many releases came out after it. The engine pages and
the data-quality page show it as "against v0.33.0 (2026-11-02); 3 releases since".
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from macros.data.model import Engine
from macros.data.rules import parse_version


@dataclass(frozen=True)
class CheckedAgainst:
    """The stable release an engine's data was checked against, and the releases recorded since."""

    engine: str
    version: str  # as recorded: "v0.33.0"
    date: str  # YYYY-MM-DD, or "" when none is recorded
    releases_since: int | None  # None when no release-history is recorded: unknown, not zero
    pre_releases_since: int  # how many of those are pre-releases (rc, beta, alpha, dev)

    @property
    def since(self) -> str:
        """The releases recorded since, in words; empty when no history is recorded (unknown)."""
        count, pre = self.releases_since, self.pre_releases_since
        if count is None:
            return ""
        if count == 0:
            return "no release since"
        if pre == count:  # only pre-releases came out: the recorded stable release is still the newest one
            return f"{count} pre-release{'s' if count > 1 else ''} since, no newer stable release"
        return f"{count} release{'s' if count > 1 else ''} since" + (f" ({pre} of them pre-releases)" if pre else "")


def checked_against_release(engine: Engine) -> CheckedAgainst | None:
    """The recorded stable release and how many of release-history are newer (by version; by date when it is not one), or None."""
    latest = engine.latest_release
    if latest is None:
        return None
    stable = latest.stable
    recorded = parse_version(stable.version)
    newer = {}
    for release in engine.release_history:
        version = parse_version(release.version)
        if version is None:
            continue
        if recorded is not None and version > recorded or recorded is None and _after(release.date, stable.date):
            newer[version] = release.pre_release or version.is_prerelease  # one entry per version
    return CheckedAgainst(engine.id, stable.version, stable.date,
                          len(newer) if engine.release_history else None, sum(newer.values()))


def _after(day: str, than: str) -> bool:
    try:
        return dt.date.fromisoformat(day) > dt.date.fromisoformat(than)
    except ValueError:
        return False
