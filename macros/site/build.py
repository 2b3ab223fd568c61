"""One build of the site, as an object: the checked catalog, the settings it is rendered with, the
outputs it writes, and what the build keeps between MkDocs' events (HTML set aside while Markdown
reads a page, the titles of generated pages, rendered fragments reused across pages, timings).

It is created once per build by macros/site/hooks.py (on_config), and every hook, macro and
renderer receives it explicitly: nothing is stashed on MkDocs' config or on data objects.
`python -m macros export` creates one too, without MkDocs, to write the same outputs.
"""
from __future__ import annotations

import datetime as dt
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from macros.data.changes import git_output
from macros.data.model import Catalog
from macros.site.ahead import Ahead
from macros.site.last_site import LastSite, abandon

EVERY_PAIR_UP_TO = 12  # mkdocs.yml extra.pair_pages.every_pair_up_to when it says nothing


@dataclass(frozen=True)
class Settings:
    """What the renderers need to know of the site besides the data."""

    repository: str = ""  # where edit and report links go (macros/site/repository.py), or ""
    host: str = ""  # "github" or "gitlab"
    branch: str = "main"
    site_url: str = ""
    commit: str = "unknown"
    commit_date: str = ""  # the commit's day, YYYY-MM-DD: staleness is measured from it
    every_pair_up_to: int = EVERY_PAIR_UP_TO  # up to this many engines, every pair gets a pre-rendered page
    processes: int = 2  # 1: the build never starts a second process (macros/site/ahead.py)

    @property
    def today(self) -> dt.date | None:
        return dt.date.fromisoformat(self.commit_date) if self.commit_date else None


def git_commit(root: Path) -> str:
    """The short commit of the checkout, or "unknown" outside git."""
    return (git_output(root, "rev-parse", "--short", "HEAD") or "unknown").strip()


def git_commit_date(root: Path) -> str:
    """The day of the checkout's commit (YYYY-MM-DD), or "" outside git."""
    return (git_output(root, "log", "-1", "--format=%cs") or "").strip()


class SettingsError(ValueError):
    """A setting in mkdocs.yml the build cannot use: the message names it and says what it takes."""


def _count(value, name: str, least: int) -> int:
    """A whole number of at least `least` from mkdocs.yml, or a SettingsError naming the setting."""
    # 0-9 only: str.isdigit() also takes other scripts' digits (and superscripts, which int() refuses)
    if isinstance(value, bool) or not isinstance(value, int | str) or not re.fullmatch(r"[0-9]+", str(value).strip()) \
            or int(value) < least:
        raise SettingsError(f"mkdocs.yml: extra.{name} is {value!r}: it takes a whole number, {least} or more")
    return int(value)


def settings_from(extra: dict, site_url: str, root: Path, environ=os.environ) -> Settings:
    """The settings of a build from mkdocs.yml's `extra` and `site_url`, the checkout and the CI environment."""
    from macros.site.repository import repository

    repo = repository(extra, environ)
    pair_pages = extra.get("pair_pages") or {}
    return Settings(repository=repo.get("url", ""), host=repo.get("host", ""), branch=extra.get("edit_branch", "main"),
                    site_url=site_url or "", commit=git_commit(root), commit_date=git_commit_date(root),
                    every_pair_up_to=_count(pair_pages.get("every_pair_up_to", EVERY_PAIR_UP_TO),
                                            "pair_pages.every_pair_up_to", 0),
                    processes=_count(extra.get("build_processes", 2), "build_processes", 1))


@dataclass
class Build:
    root: Path
    catalog: Catalog
    settings: Settings = field(default_factory=Settings)
    # the files that are not pages (downloads, badges, feed, pair addresses), by name: see macros/site/outputs
    outputs: list = field(default_factory=list)
    make_data_pages: bool = True  # one page per engine, feature and pair
    feed_linked: bool = False  # every page's head names the feed (there is a whole history to build it from)
    stash: dict = field(default_factory=dict, repr=False)  # page -> HTML kept aside while Markdown reads it
    titles: dict = field(default_factory=dict, repr=False)  # generated page -> its title (data text)
    generated_files: list = field(default_factory=list, repr=False)  # the MkDocs files of those pages
    output_files: list = field(default_factory=list, repr=False)  # the MkDocs files of the outputs
    written_ahead: list = field(default_factory=list, repr=False)  # those the second process writes
    rendered: dict = field(default_factory=dict, repr=False)  # fragments reused across the pages of one build
    ahead: Ahead = field(default_factory=lambda: Ahead({}), repr=False)  # the second process at work, if any
    last_site: LastSite | None = field(default=None, repr=False)  # the last build's files, written over
    timings: dict = field(default_factory=dict)  # phase -> seconds

    @property
    def today(self) -> dt.date:
        """The day staleness is measured from: the commit's day, so a commit always builds the same site."""
        return self.settings.today or dt.date.fromisoformat(self.catalog.data_date)

    def timed(self, phase: str):
        return _Timer(self.timings, phase)


class _Timer:
    def __init__(self, timings: dict, phase: str):
        self.timings, self.phase = timings, phase

    def __enter__(self):
        self.start = time.perf_counter()

    def __exit__(self, *exc):
        self.timings[self.phase] = self.timings.get(self.phase, 0.0) + time.perf_counter() - self.start


def outside_mkdocs(catalog: Catalog, root: Path) -> Build:
    """A build of the same outputs without MkDocs (`python -m macros export`), with the settings
    mkdocs.yml gives (it is plain YAML: no tags)."""
    import yaml

    from macros.site import outputs

    config_file = Path(root) / "mkdocs.yml"
    config = yaml.safe_load(config_file.read_text(encoding="utf-8")) if config_file.is_file() else {}
    settings = settings_from((config or {}).get("extra") or {}, (config or {}).get("site_url") or "", Path(root))
    return Build(Path(root), catalog, settings, list(outputs.OUTPUTS))


# The build under way, per configuration file: MkDocs calls hooks as plain functions, so each event
# looks its build up here (explicitly, by the config file it builds) instead of reading state off
# MkDocs' objects. `mkdocs serve` starts a new build, and a new entry, on every rebuild.
_BUILDS: dict[str, Build] = {}


def start(config_file: str, build: Build) -> Build:
    _BUILDS[str(config_file)] = build
    return build


def current(config) -> Build:
    """The build of this MkDocs config (anything with a `config_file_path` entry)."""
    return _BUILDS[str(config["config_file_path"])]


def finish(config) -> None:
    build = _BUILDS.pop(str(config["config_file_path"]), None)
    if build is not None:
        build.ahead.close()


def abandon_all() -> None:
    """After a failed build (MkDocs' on_build_error names no config): stop every second process, and
    remove what is left of the last build's files."""
    for build in _BUILDS.values():
        build.ahead.close()
        if build.last_site is not None:
            abandon(build.last_site)
