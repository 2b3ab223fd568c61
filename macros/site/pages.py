"""Hand-written pages under docs/ hold prose and one-line calls of the project's macros, nothing else.

mkdocs-macros renders every page as a Jinja template, and the title in its front matter too:
`{{ cycler.__init__.__globals__.os.popen('id').read() }}` hidden in an HTML comment would run at
build time, invisible in the rendered preview. So before any page is rendered, each is read with
Jinja's own lexer (the reading Jinja itself will make) and allowed only:

- `{{ macro("literal", ...) }}`: a macro of this project, with string or number arguments;
- `{{ "text" }}`: a string literal, which is how a page shows `{{` as text.

Statements (`{% %}`), comments (`{# #}`), variables, filters, attribute access and any other
expression are errors naming the file and line. Front matter is never a template: Jinja syntax
there is an error too.

Page text also reaches Python-Markdown, whose inline patterns rescan the rest of a block for
each unclosed `[`, `](` or `<`: a page of a few hundred KB of them takes hours. So each such
opening must close on its own line within a bounded distance (`bounded_openings`), which keeps
the build linear in the page's size.
"""
from __future__ import annotations

import re
from pathlib import Path

from jinja2 import Environment
from jinja2.exceptions import TemplateSyntaxError

from macros.data.problems import Problem

LITERAL_TIP = "to show `{{` as text, write {{ '{{' }}; a macro is called as {{ name(\"id\") }}"
_LITERALS = {"string", "integer", "float"}
_ENV = Environment()  # the default delimiters, which mkdocs-macros uses

# Python-Markdown: the distance within which an opening must close (characters, on one line),
# and how many `[` one paragraph, list item or table row may hold (its link and reference parsers
# take time with the square of that number: 40 keeps the worst page within a few times an ordinary one)
OPENINGS = {"[": ("]", 400), "<": (">", 400), "](": (")", 1000), "][": ("]", 200)}
# The same for `[` and for `*`: its emphasis and strong parsers also take time with the square of the
# `*` one block holds (a 1.9 MB paragraph of `*a` built in 570 s, against 10 s for prose of that size)
PER_BLOCK = {"[": (40, "Markdown's link parser"), "*": (1000, "Markdown's emphasis parser")}
# ... and, even in short blocks, each `*` costs Markdown some 70 µs: a page of 1.9 MB of `*a` in blocks of
# 1000 took 74 s. A page with this many is no prose page; at most this many keeps it near an ordinary build.
ASTERISKS_PER_PAGE = 20_000
_BLOCK_START = re.compile(r"\s*(?:[|>*+-]|\d+[.)])")  # a table row, quote, or list item starts a block of its own


def split_front_matter(text: str) -> tuple[str, str, int]:
    """(front matter, body, the line the body starts on): MkDocs' own rule, `---` lines at the top."""
    lines = text.splitlines(keepends=True)
    if lines and lines[0].rstrip() == "---":
        for index, line in enumerate(lines[1:], 1):
            if line.rstrip() in ("---", "..."):
                return "".join(lines[1:index]), "".join(lines[index + 1:]), index + 2
    return "", text, 1


def _expression_problem(tokens: list, macros: frozenset) -> str:
    """Why the tokens between `{{` and `}}` are not an allowed expression, or ""."""
    kinds = [(kind, value) for _, kind, value in tokens if kind != "whitespace"]
    if len(kinds) == 1 and kinds[0][0] == "string":
        return ""
    if not kinds or kinds[0][0] != "name":
        return "is not a macro call"
    name = kinds[0][1]
    if name not in macros:
        return f"calls `{name}`, which is not one of the site's macros ({', '.join(sorted(macros))})"
    rest = kinds[1:]
    if not rest or rest[0] != ("operator", "("):
        return f"uses `{name}` without calling it: write {name}(...)"
    expect_literal = True
    for index, (kind, value) in enumerate(rest[1:], 1):
        if (kind, value) == ("operator", ")") and (not expect_literal or index == 1):
            if index + 1 < len(rest):
                return f"has `{rest[index + 1][1]}` after the call of `{name}`: a page holds the call alone"
            return ""
        if expect_literal and kind not in _LITERALS:
            return f"passes `{value}` to `{name}`: arguments are quoted strings or numbers"
        if not expect_literal and (kind, value) != ("operator", ","):
            return f"has `{value}` in the call of `{name}`: arguments are literals separated by commas"
        expect_literal = not expect_literal
    return f"does not close the call of `{name}` with `)`"


def template_problems(shown: str, text: str, macros: frozenset) -> list[Problem]:
    """Every use of Jinja in a page that is not an allowed macro call or string literal."""
    front, body, first_line = split_front_matter(text)
    problems = []
    for number, line in enumerate(front.splitlines(), 2):
        marker = next((m for m in ("{{", "{%", "{#") if m in line), None)
        if marker:
            problems.append(Problem(shown, number, line.index(marker) + 1,
                                    f"front matter contains `{marker}`: front matter is never a template",
                                    "write the title as plain text"))
    try:
        tokens = list(_ENV.lex(body))
    except TemplateSyntaxError as error:
        return problems + [Problem(shown, (error.lineno or 1) + first_line - 1, 1,
                                   f"Jinja cannot read this page: {error.message}", LITERAL_TIP)]
    expression: list | None = None
    for lineno, kind, value in tokens:
        line = lineno + first_line - 1
        if kind in ("block_begin", "raw_begin", "linestatement_begin"):
            problems.append(Problem(shown, line, 1, "contains a Jinja statement (`{%`): pages hold prose and macro "
                                    "calls only", LITERAL_TIP))
        elif kind in ("comment_begin", "linecomment_begin"):
            problems.append(Problem(shown, line, 1, "contains a Jinja comment (`{#`), which hides text from the "
                                    "preview", "use an HTML comment <!-- ... --> for notes; " + LITERAL_TIP))
        elif kind == "variable_begin":
            expression, start = [], line
        elif kind == "variable_end" and expression is not None:
            why = _expression_problem(expression, macros)
            if why:
                problems.append(Problem(shown, start, 1, f"`{{{{ ... }}}}` {why}", LITERAL_TIP))
            expression = None
        elif expression is not None:
            expression.append((lineno, kind, value))
    if expression is not None:
        problems.append(Problem(shown, start, 1, "Jinja cannot read this page: `{{` is never closed with `}}`",
                                LITERAL_TIP))
    return problems


def bounded_openings(shown: str, text: str) -> list[Problem]:
    """An opening `[`, `<`, `](` or `][` that does not close on its line within its distance, and a
    block with more `[` or `*` than Markdown handles in linear time."""
    problems = []
    block_start, counts, asterisks = 1, dict.fromkeys(PER_BLOCK, 0), 0
    for number, line in enumerate(text.splitlines(), 1):
        asterisks += line.count("*")
        if asterisks > ASTERISKS_PER_PAGE:
            problems.append(Problem(shown, number, 1, f"this page holds more than {ASTERISKS_PER_PAGE} `*`",
                                    "split it into several pages, or write `&#42;` where a `*` is not emphasis: "
                                    "Markdown's emphasis parser takes time for each"))
            asterisks = -len(text)  # once per page
        if not line.strip():
            block_start, counts = number + 1, dict.fromkeys(PER_BLOCK, 0)
        elif _BLOCK_START.match(line):
            block_start, counts = number, dict.fromkeys(PER_BLOCK, 0)
        for character, (most, parser) in PER_BLOCK.items():
            counts[character] += line.count(character)
            if counts[character] > most:
                problems.append(Problem(shown, block_start, 1, f"this paragraph holds more than {most} `{character}`",
                                        f"split it into shorter paragraphs or list items: {parser} slows down "
                                        "with the square of their number"))
                counts[character] = -len(text)  # once per block
        for opening, (closing, distance) in OPENINGS.items():
            start = line.find(opening)
            while start != -1:
                end = line.find(closing, start + len(opening), start + len(opening) + distance)
                if end == -1:
                    problems.append(Problem(
                        shown, number, start + 1, f"`{opening}` does not close with `{closing}` within {distance} "
                        "characters on its line", f"close it, or write it as an entity (`&#{ord(opening[0])};`): "
                        "unclosed openings make Markdown rescan the rest of the paragraph"))
                    break  # one per kind and line: the contributor sees where to look
                start = line.find(opening, start + len(opening))
    return problems


def page_problems(docs_dir: Path, macros: frozenset, shown_from: Path) -> list[Problem]:
    """The problems of every Markdown page under docs/ (regular files only: inputs.py refuses the rest)."""
    problems = []
    for path in sorted(Path(docs_dir).rglob("*.md")):
        if path.is_symlink() or not path.is_file():
            continue
        shown = path.relative_to(shown_from).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        problems += template_problems(shown, text, macros) + bounded_openings(shown, text)
    return problems


def input_problems(root: Path) -> list[Problem]:
    """Everything wrong with what the build reads besides the data's content: special files
    anywhere it reads, and pages that hold more than prose and macro calls."""
    from macros.data.inputs import special_inputs
    from macros.site.render import MACRO_NAMES

    root = Path(root)
    found = special_inputs(root)
    if (root / "docs").is_dir() and not (root / "docs").is_symlink():
        found += page_problems(root / "docs", MACRO_NAMES, root)
    return found
