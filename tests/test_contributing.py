"""CONTRIBUTING.md names every module and file by its path from the repository root, and each one
exists; every class, function, constant or key it names in code is defined: the code map cannot
drift from the code unnoticed."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

_FENCED = re.compile(r"^```.*?^```", re.M | re.S)  # examples of data files: their comments are not the map
_SPAN = re.compile(r"(`+)(.+?)\1")
_PATH = re.compile(r"\.?[\w<>*-]+(?:[./][\w<>*-]+)*/?")
_FILE = re.compile(r"\.(?:py|yml|yaml|json|md|txt|html|js|css|svg|xml|toml|ini)$")
# `Catalog.levels`, `build_catalog`, `OUTPUTS`: dotted, or with a capital or an underscore; a plain
# lowercase word (`fits`, `present`) is as likely a data value as a name, and is not checked
_CODE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# where names are defined: the code, the tests, the site's configuration and the data's schemas
_DEFINING = ("macros/**/*.py", "tests/*.py", "mkdocs.yml", "data/schema/*.json")


def code_spans(markdown: str) -> list[str]:
    """The text of every code span outside fenced blocks."""
    return [span for _, span in _SPAN.findall(_FENCED.sub("", markdown))]


def named_paths(markdown: str) -> list[str]:
    """The repository paths a Markdown text names in code spans: a span that is one path with a `/`
    in it, or a file name with a file's ending. A site address starts with `/` and is no path of the
    repository; `<id>` (or `*`) stands for any name."""
    found = []
    for span in code_spans(markdown):
        if _PATH.fullmatch(span) and ("/" in span or _FILE.search(span)) and not span.startswith(("/", "../", "./")):
            found.append(span)
    return list(dict.fromkeys(found))


def missing_paths(markdown: str, root: Path = ROOT) -> list[str]:
    """The paths a text names that match nothing in the repository."""
    return [path for path in named_paths(markdown)
            if not any(root.glob(re.sub(r"<[^<>/]*>", "*", path.rstrip("/"))))]


def named_code(markdown: str, root: Path = ROOT) -> list[str]:
    """The names of code a Markdown text gives in code spans (a file it names is a path, not a name)."""
    names = [span for span in code_spans(markdown)
             if _CODE_NAME.fullmatch(span) and re.search(r"[A-Z_.]", span) and not (root / span).exists()]
    return list(dict.fromkeys(names))


def undefined_names(markdown: str, root: Path = ROOT) -> list[str]:
    """The names a text gives that nothing defines: no `def`, `class`, assignment, field or key of
    that name (for `Catalog.levels`, of its last part)."""
    sources = "\n".join(path.read_text(encoding="utf-8") for pattern in _DEFINING for path in root.glob(pattern))

    def defined(name: str) -> bool:
        last = re.escape(name.rsplit(".", 1)[-1])
        return re.search(rf'^\s*(?:(?:def|class)\s+{last}\b|"?{last}"?\s*[:=])', sources, re.M) is not None

    return [name for name in named_code(markdown, root) if not defined(name)]


def test_every_path_contributing_names_exists():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert {"macros/site/hooks.py", "macros/site/views.py", "macros/data/load.py"} <= set(named_paths(text))
    assert missing_paths(text) == []


def test_a_path_that_does_not_exist_or_is_not_from_the_root_is_found():
    text = ("The hooks (`macros/site/hooks.py`), the views (`macros/site/view.py`), the loader (`load.py`),\n"
            "an engine file (`data/engines/<id>.yml`), the templates (`macros/site/templates/`), a page at\n"
            "`/compare/a-vs-b/`, a command (`make check`), a call (`data.line_of`).\n"
            "```yaml\n# yaml-language-server: $schema=../schema/nowhere.json\n```\n")
    assert named_paths(text) == ["macros/site/hooks.py", "macros/site/view.py", "load.py", "data/engines/<id>.yml",
                                 "macros/site/templates/"]
    assert missing_paths(text) == ["macros/site/view.py", "load.py"]


def test_every_name_contributing_gives_is_defined():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert {"build_catalog", "Catalog.pairs", "OUTPUTS", "data.line_of"} <= set(named_code(text))
    assert undefined_names(text) == []


def test_a_name_nothing_defines_is_found():
    text = ("The one loader (`read_catalog`, once `load_all`), the record (`Statement`, once `Claim`), the\n"
            "registry (`OUTPUTS`), a method (`Catalog.pairs`, once `Catalog.couples`), a status (`fits`),\n"
            "a file (`Makefile`, `mkdocs.yml`).\n")
    assert named_code(text) == ["read_catalog", "load_all", "Statement", "Claim", "OUTPUTS", "Catalog.pairs",
                                "Catalog.couples"]
    assert undefined_names(text) == ["load_all", "Claim", "Catalog.couples"]
