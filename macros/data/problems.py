"""A problem found in the data: where it is, what is wrong, and how to fix it."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# Characters that could forge or hide terminal output: C0 and C1 controls, DEL, bidi
# controls and invisible characters. Problems print them as \u escapes instead.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")

# Only the first problems of each kind get a did-you-mean: a hostile file with thousands of
# unknown ids must not cost thousands of fuzzy searches.
SUGGESTIONS_PER_KIND = 50


def printable(text: object) -> str:
    """`text` with every control, bidi and invisible character shown as an escape, on one line."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m[0]):04x}" if m[0] not in "\n\t" else repr(m[0])[1:-1], str(text))


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    col: int
    message: str
    tip: str = ""

    def __str__(self) -> str:
        text = f"{printable(self.path)}:{self.line}:{self.col}: {printable(self.message)}"
        return f"{text}\n    tip: {printable(self.tip)}" if self.tip else text


class DataError(Exception):
    """Raised once, after every problem has been collected."""

    def __init__(self, problems: list[Problem], first: list[Problem] = ()):
        # `first` (files that do not parse) lead: later problems are often their echo
        first = sorted(set(first))
        self.problems = first + sorted(set(problems) - set(first))
        super().__init__(report(self.problems))


_suggested: dict[str, int] = {}


def did_you_mean(value: object, choices, kind: str = "") -> str:
    """A tip naming the closest allowed value, or listing them when few."""
    choices = sorted(str(c) for c in choices)
    if len(choices) <= 8:
        close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'?" if close else "allowed: " + ", ".join(choices)
    _suggested[kind] = _suggested.get(kind, 0) + 1
    if _suggested[kind] > SUGGESTIONS_PER_KIND:
        return ""
    close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def reset_suggestions() -> None:
    """Start a new run: each run gets its own budget of suggestions."""
    _suggested.clear()


def summary_line(problems: list[Problem]) -> str:
    files = len({p.path for p in problems})
    noun = "problem" if len(problems) == 1 else "problems"
    where = "file" if files == 1 else "files"
    return f"{len(problems)} {noun} in {files} {where}"


def report(problems: list[Problem]) -> str:
    return "\n".join([*map(str, problems), summary_line(problems)])
