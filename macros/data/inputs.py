"""Everything the build reads is a regular file inside the repository.

A pull request can commit a symbolic link anywhere: under docs/ (to /proc/self/environ, to
.git/config, to /dev/zero, to a folder outside the checkout), under data/ or macros/. MkDocs
would publish what it points to as a page or an asset, or copy forever. So every path under
the folders the build reads is looked at without following links, and each symbolic link
(wherever it points), named pipe, device or socket is refused, with what to do. A local
checkout can hold the special files too (git never commits them), so they are named the same way.
Compiled code committed anywhere is refused as well: Python would import it instead of the source.

`make check` prints these problems, and the build refuses to start while there is one, so a
plain `mkdocs build` refuses them too.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from macros.data.problems import Problem

# What the build reads: its configuration, the pages and assets, the data, the code and
# templates, and the licences the downloads carry.
BUILD_FOLDERS = ("docs", "data", "macros")
BUILD_FILES = ("mkdocs.yml", "LICENSE", "LICENSE-DATA")
SKIPPED = {"__pycache__"}  # written by Python itself (a committed one is refused: committed_compiled_code)

_KINDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device",
          stat.S_IFSOCK: "a socket"}
# A page or asset name becomes a URL and, for a page without a title, its title: plain names only
_DOCS_NAME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]*\Z")


def refusal(mode: int) -> tuple[str, str] | None:
    """(what it is, what to do) for anything but a regular file or a folder."""
    if stat.S_ISLNK(mode):
        return ("is a symbolic link: the build never follows links, wherever they point",
                "commit the file itself (a copy), not a link to it")
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return (f"is {_KINDS.get(stat.S_IFMT(mode), 'not a regular file')}", "remove it: the build reads regular files only")


def special_inputs(root: Path) -> list[Problem]:
    """A problem for each path the build would read that is not a regular file or a folder."""
    root = Path(root)
    problems = []

    def look(path: Path) -> bool:
        """Report `path` if it is special; True when it is a folder to walk into."""
        try:
            mode = os.lstat(path).st_mode
        except OSError as error:
            problems.append(Problem(path.relative_to(root).as_posix(), 1, 1, f"cannot be read: {error.strerror}"))
            return False
        refused = refusal(mode)
        if refused:
            problems.append(Problem(path.relative_to(root).as_posix(), 1, 1, *refused))
        return stat.S_ISDIR(mode) and not refused

    for name in BUILD_FILES:
        if os.path.lexists(root / name):
            look(root / name)
    for name in BUILD_FOLDERS:
        top = root / name
        if not os.path.lexists(top) or not look(top):
            continue
        # os.walk never follows a link into a folder; each entry is looked at with lstat
        for folder, folders, files in os.walk(top):
            folders[:] = sorted(f for f in folders if f not in SKIPPED and look(Path(folder) / f))
            for file in sorted(files):
                look(Path(folder) / file)
    return problems + _docs_names(root) + committed_compiled_code(root)


# Files Python imports as code besides a module's source: compiled modules (a `__pycache__` one is used
# in place of the source beside it; one outside it is a module of its own) and extension modules, which
# are found before a source of the same name. Compared without case: a case-insensitive disk finds them so.
_COMPILED_ENDINGS = (".pyc", ".pyo", ".so", ".pyd")


def committed_compiled_code(root: Path) -> list[Problem]:
    """Compiled code that git tracks. Python imports it in place of the source beside it (a compiled file
    marked "unchecked" without ever comparing the two), so a committed one runs code that no reviewer read
    in the diff. Every tracked path is looked at (no pathspec: git's environment can change how one
    matches); outside a git checkout nothing is tracked. In a checkout whose files git will not list
    (git missing, or refusing a checkout another user owns), nothing could be looked at: that is a problem
    too, or this check would pass without looking."""
    from macros.data.changes import git_output

    listed = git_output(root, "ls-files", "-z")
    if listed is None:
        if not os.path.lexists(root / ".git"):
            return []
        return [Problem(".git", 1, 1, "git cannot list this checkout's files, so committed compiled code (which "
                        "Python would run in place of the reviewed source) cannot be looked for",
                        "run `git ls-files` here to see why: git missing, or a checkout another user owns "
                        "(`git config --global --add safe.directory <this folder>`)")]
    found = [path for path in filter(None, listed.split("\0"))
             if path.lower().endswith(_COMPILED_ENDINGS) or "__pycache__" in path.lower().split("/")[:-1]]
    return [Problem(path, 1, 1, "is compiled code committed to the repository: Python would import it in place of "
                    "the source that review reads",
                    "remove it from the repository with `git rm --cached`: Python writes its own compiled files, "
                    "and .gitignore keeps them out")
            for path in sorted(found)]


def _docs_names(root: Path) -> list[Problem]:
    """Page and asset names under docs/ are plain: letters, digits, `.`, `_` and `-`."""
    problems = []
    for folder, folders, files in os.walk(root / "docs"):
        for name in [*folders, *files]:
            if not _DOCS_NAME.match(name):
                shown = (Path(folder) / name).relative_to(root).as_posix().encode("unicode_escape").decode("ascii")
                problems.append(Problem(shown, 1, 1, "has a name that is not plain: it becomes a URL and, for a page "
                                        "without a title, the title every page's navigation shows",
                                        "rename it with lowercase letters, digits and `-` (`my-page.md`)"))
    return problems
