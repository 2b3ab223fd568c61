"""`make twin`: the site built by ProperDocs (the maintained continuation of MkDocs 1.x) must be
the site built by MkDocs, byte for byte, but for the generator tag. So a move off MkDocs 1.x is
a change of one command, proven on every push."""
from __future__ import annotations

import re
from pathlib import Path

_GENERATOR = re.compile(rb'<meta name="generator" content="[^"]*">')


def differences(first: Path, second: Path) -> list[str]:
    """Files that exist in one build only, or differ beyond the generator tag."""
    a = {p.relative_to(first) for p in Path(first).rglob("*") if p.is_file()}
    b = {p.relative_to(second) for p in Path(second).rglob("*") if p.is_file()}
    found = [f"only in {first}: {p}" for p in sorted(a - b)] + [f"only in {second}: {p}" for p in sorted(b - a)]
    for path in sorted(a & b):
        x, y = (Path(root, path).read_bytes() for root in (first, second))
        if path.suffix == ".html":
            x, y = _GENERATOR.sub(b"", x), _GENERATOR.sub(b"", y)
        if x != y:
            found.append(f"differs: {path}")
    return found


def main(first: str, second: str) -> int:
    found = differences(Path(first), Path(second))
    for line in found:
        print(line)
    print(f"{len(found)} differences between {first} and {second}" if found else
          f"the same site, but for the generator tag: {first} and {second}")
    return 1 if found else 0
