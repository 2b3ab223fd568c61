"""The hashed lock files agree with the pinned requirements they are made from.

`requirements.txt` and `requirements-dev.txt` are the pins people and other install paths read;
`requirements.lock.txt` and `requirements-dev.lock.txt` hold the same pins with the hash of
every file, and are what `make` installs with `--require-hashes`. `make lock` writes them; this
check (run by `make test`) says when a pin changed without them.
"""
from __future__ import annotations

import re
from pathlib import Path

from macros.data.catalog import ROOT

LOCKS = {"requirements.lock.txt": "requirements.txt", "requirements-dev.lock.txt": "requirements-dev.txt"}
_PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def normal_name(name: str) -> str:
    """A package name as the index compares them (PEP 503): lowercase, runs of - _ . as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _lines(path: Path) -> list[str]:
    """Logical lines: comments dropped, backslash continuations joined."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#", 1)[0].strip()]


def pins(path: Path) -> dict[str, str]:
    """Package -> pinned version, following `-r other.txt` includes."""
    found: dict[str, str] = {}
    for line in _lines(path):
        if line.startswith("-r "):
            found.update(pins(path.parent / line[3:].strip()))
        elif match := _PIN.match(line):
            found[normal_name(match[1])] = match[2]
    return found


def unhashed(path: Path) -> list[str]:
    return [normal_name(m[1]) for line in _lines(path) if (m := _PIN.match(line)) and "--hash=sha256:" not in line]


def lock_problems(root: Path = ROOT) -> list[str]:
    """One message per disagreement between a lock file and the requirements it is made from."""
    problems = []
    for lock_name, source_name in LOCKS.items():
        lock, source = root / lock_name, root / source_name
        if not lock.is_file():
            problems.append(f"{lock_name} is missing: run `make lock` and commit it")
            continue
        wanted, locked = pins(source), pins(lock)
        for name in sorted(wanted.keys() | locked.keys()):
            if wanted.get(name) != locked.get(name):
                problems.append(f"{lock_name}: {name} is {locked.get(name) or 'absent'}, but {source_name} (or what it "
                                f"includes) pins {wanted.get(name) or 'nothing'}: run `make lock` and commit the result")
        problems += [f"{lock_name}: {name} has no --hash: run `make lock`" for name in unhashed(lock)]
    return problems
