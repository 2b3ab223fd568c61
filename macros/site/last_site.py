"""The last build's files, written over instead of made again.

MkDocs empties the site folder before each build (`mkdocs serve`: before each rebuild), then creates
every file anew: 1,500 of them here, 1,300 of them badges. Creating a file costs the file system far
more than writing over one, and on some machines the difference is large and erratic (on this
project's: 0.06 to 0.7 s of kernel time for the same 1,365 files, from one build to the next). So the
build writes over the last build's files where it can, and ends with exactly what a clean build has:

- on_pre_build, `set_aside`: each entry MkDocs' cleaning would remove is moved into one hidden
  folder, which the cleaning leaves alone (it keeps the entries whose names start with a dot);
- on_env, `restore`, before anything is written: the entries are moved back, and each file's times
  are noted. What could not be written over as a new file would be is removed now: a link (a write
  would follow it), a file with another name for it (a hard link: a write would change that file too),
  one this process may not write, and anything in the way of a file or folder the build writes;
- on_post_build, `remove_unwritten`, after every plugin has written: each file whose times are
  unchanged (the build did not write it: a renamed page, a removed engine's badges) is removed,
  then each folder left empty.

A `--dirty` build keeps the last files by design, and skips all of this (macros/site/hooks.py).
tests/test_last_site.py shows the result equal to a clean build's, file for file.
"""
from __future__ import annotations

import os
import shutil
import stat
from contextlib import contextmanager
from dataclasses import dataclass, field

HOLD = ".last-build"  # hidden: MkDocs' cleaning (mkdocs.utils.clean_directory) leaves it alone


@dataclass
class LastSite:
    """The last build's files in one site folder, from set_aside to remove_unwritten."""

    site_dir: str
    stamps: dict = field(default_factory=dict)  # file kept -> (modified, changed) times when kept
    folders: list = field(default_factory=list)  # folders kept, each before those inside it


@contextmanager
def _reported(site_dir: str):
    """A file system refusal as one line naming the file, not a traceback."""
    try:
        yield
    except OSError as error:
        from mkdocs.exceptions import PluginError  # here: `make check` imports this module, and not MkDocs

        raise PluginError(f"{error.filename or site_dir}: {error.strerror or error} (the build empties and writes "
                          f"the site folder {site_dir}: it must be a folder this user may change)") from None


def _remove(path: str) -> None:
    """Remove a file, link or folder (a folder with all it holds, links inside it never followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def set_aside(site_dir: str) -> LastSite | None:
    """Move what MkDocs' cleaning would remove into the hidden folder; None when there is nothing."""
    site_dir = os.path.abspath(site_dir)
    hold = os.path.join(site_dir, HOLD)
    with _reported(site_dir):
        _remove(hold)  # left by a build that was stopped before on_env: nothing in it is wanted
        try:
            names = [name for name in os.listdir(site_dir) if not name.startswith(".")]
        except (FileNotFoundError, NotADirectoryError):
            return None  # no folder yet, or MkDocs' own message
        if not names:
            return None
        os.mkdir(hold)
        for name in names:
            os.rename(os.path.join(site_dir, name), os.path.join(hold, name))
    return LastSite(site_dir)


def restore(last: LastSite, written: list[str]) -> None:
    """Move the entries back (MkDocs has cleaned, and written nothing yet), keeping only what a build
    can write over as it would write a new file; `written` are the paths of the files MkDocs writes."""
    with _reported(last.site_dir):
        _put_back(last, written)


def _put_back(last: LastSite, written: list[str]) -> None:
    hold = os.path.join(last.site_dir, HOLD)
    for name in os.listdir(hold):
        target = os.path.join(last.site_dir, name)
        if os.path.lexists(target):  # made since the cleaning: the new one stands
            _remove(os.path.join(hold, name))
        else:
            os.rename(os.path.join(hold, name), target)
    os.rmdir(hold)
    # a folder where the build writes a file, or a file where it needs a folder, would make the write
    # fail or land elsewhere: removed, as the cleaning would have
    inside = last.site_dir + os.sep
    written = [path for path in written if path.startswith(inside)]  # nothing outside the site is touched
    folders = set()
    for path in written:
        folder = os.path.dirname(path)
        while len(folder) > len(last.site_dir) and folder not in folders:
            folders.add(folder)
            folder = os.path.dirname(folder)
    # each folder before those inside it, and a link first of all: a path through a link would reach
    # outside the site (a link to a folder elsewhere, and `lnk/sub` would remove that folder's `sub`)
    for path in sorted(folders, key=len):
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
            _remove(path)
    for path in written:
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
            _remove(path)
    _keep_writable(last, last.site_dir, top=True)


def _keep_writable(last: LastSite, folder: str, top: bool = False) -> None:
    """Note each file and folder that can be written over like a new one; remove the rest."""
    with os.scandir(folder) as entries:
        found = list(entries)
    for entry in found:
        if top and entry.name.startswith("."):
            continue  # the cleaning never touched these, and neither does this
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode) and os.access(entry.path, os.W_OK | os.X_OK):
            last.folders.append(entry.path)
            _keep_writable(last, entry.path)
        elif stat.S_ISREG(info.st_mode) and info.st_nlink == 1 and os.access(entry.path, os.W_OK):
            last.stamps[entry.path] = (info.st_mtime_ns, info.st_ctime_ns)
        else:
            _remove(entry.path)


def remove_unwritten(last: LastSite) -> None:
    """Remove each kept file the build did not write (its times unchanged), then each kept folder left
    empty, the deepest first: what stays is what a clean build would have made."""
    with _reported(last.site_dir):
        _remove_unwritten(last)


def _remove_unwritten(last: LastSite) -> None:
    for path, stamp in last.stamps.items():
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        if (info.st_mtime_ns, info.st_ctime_ns) == stamp:
            os.unlink(path)
    for folder in reversed(last.folders):
        try:
            os.rmdir(folder)
        except OSError:  # not empty: the build wrote in it
            pass
    last.stamps.clear()
    last.folders.clear()


def abandon(last: LastSite) -> None:
    """After a failed build: what is left of the last build goes (the hidden folder, or the files put
    back and not written yet), as after a failed clean build. Best done: the build's own error is the
    one to report."""
    try:
        _remove(os.path.join(last.site_dir, HOLD))
        _remove_unwritten(last)
    except OSError:
        pass
