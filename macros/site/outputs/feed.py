"""The feed of data changes, feed.xml (Atom, RFC 4287, drawn by the template outputs/feed.xml): one
entry per commit that changed data/, newest first, its text the same plain-words change as `make diff`.

It needs the whole history. A shallow clone gets no feed and a message saying so, never a
different feed. Each commit's text is kept in a cache on disk, keyed by commit, so `make serve`
does not walk the history again on every reload, and two builds of one commit write the same bytes.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from macros.data.changes import git_output
from macros.data.problems import printable
from macros.site.jinja import environment

NAME = "feed of data changes"

ENTRIES = 30
CACHE_FORMAT = "4"  # bump when the text of an entry changes, so old cached texts are not reused
FEED_ID = "tag:inference-engines-compared,2026:data-changes"


def history_state(root: Path) -> str:
    """"full", "shallow" or "none" (not a git checkout, or no commit yet)."""
    shallow = git_output(root, "rev-parse", "--is-shallow-repository")
    if shallow is None or git_output(root, "rev-parse", "--verify", "-q", "HEAD") is None:
        return "none"
    return "shallow" if shallow.strip() == "true" else "full"


def data_commits(root: Path) -> list[tuple[str, str, str]]:
    """(commit, date, subject) of the newest commits that changed data/, newest first.

    Fields and records are separated by NUL, the one character a commit message cannot hold:
    a subject with a line or unit separator in it can neither forge an entry nor hide one."""
    out = git_output(root, "log", "-z", f"-n{ENTRIES}", "--format=%H%x00%cI%x00%s", "--", "data") or ""
    fields = out.split("\x00")
    return [(fields[i], fields[i + 1], fields[i + 2]) for i in range(0, len(fields) - 2, 3)]


def _cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "inference-engines-compared" / "feed"


def change_text(root: Path, commit: str) -> str:
    """The plain-words change a commit made to the data, from the cache when it is there."""
    from macros.data.changes import catalog_at, describe
    from macros.data.model import Catalog

    cached = _cache_dir() / f"{commit}-{CACHE_FORMAT}.md"
    if cached.is_file():
        return cached.read_text(encoding="utf-8")
    data = Path(root) / "data"
    parent = git_output(root, "rev-parse", "-q", "--verify", f"{commit}^")
    before = catalog_at(parent.strip(), data) if parent else Catalog({}, [], {}, {}, [], [])
    text = describe(before, catalog_at(commit, data)).removeprefix("## Data changes\n").strip()
    if text == "No change to the data.":  # schemas or wording around the statements
        listed = git_output(root, "diff-tree", "-z", "--no-commit-id", "--name-only", "-r", commit, "--", "data") or ""
        text = "No statement changed. Files changed: " + ", ".join(printable(f) for f in listed.split("\x00") if f)
    text += "\n"
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(text, encoding="utf-8")
    except OSError:
        pass  # a read-only home: the feed is still right, only slower next time
    return text


def atom(entries: list[tuple[str, str, str, str]], site_url: str, repository: dict) -> str:
    """The feed. `entries`: (commit, date, subject, text), newest first."""
    separator = "/-/" if repository.get("host") == "gitlab" else "/"
    shown = [{"commit": commit, "date": date, "subject": printable(subject), "text": text,
              "link": f"{repository['url']}{separator}commit/{commit}" if repository else ""}
             for commit, date, subject, text in entries]
    return environment().get_template("outputs/feed.xml").render(
        entries=shown, site_url=site_url, feed_id=FEED_ID,
        updated=entries[0][1] if entries else "1970-01-01T00:00:00+00:00")


def feed(root: Path, site_url: str, repository: dict) -> str | None:
    """The feed's text, or None when the history is not there to build it from."""
    if history_state(root) != "full":
        return None
    entries = [(commit, date, subject, change_text(root, commit)) for commit, date, subject in data_commits(root)]
    return atom(entries, site_url, repository)


def files(build) -> dict[str, str]:
    state = history_state(build.root)
    if state == "shallow":
        print("feed.xml is not built: this clone is shallow and the feed reads the whole history "
              "(git fetch --unshallow; in CI, fetch-depth: 0 or GIT_DEPTH: 0)", file=sys.stderr)
    repository = {"url": build.settings.repository, "host": build.settings.host} if build.settings.repository else {}
    text = feed(build.root, build.settings.site_url, repository) if state == "full" else None
    return {"feed.xml": text} if text is not None else {}
