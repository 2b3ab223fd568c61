"""A problem found in the data: where it is, what is wrong, and how to fix it."""
from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    path: str
    line: int
    col: int
    message: str
    tip: str = ""

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.message}"
        return f"{text}\n    tip: {self.tip}" if self.tip else text


class DataError(Exception):
    """Raised once, after every problem has been collected."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__(report(self.problems))


def did_you_mean(value: object, choices) -> str:
    """A tip naming the closest allowed value, or listing them when few."""
    choices = sorted(str(c) for c in choices)
    close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    if len(choices) <= 8:
        return "allowed: " + ", ".join(choices)
    return ""


def summary_line(problems: list[Problem]) -> str:
    files = len({p.path for p in problems})
    noun = "problem" if len(problems) == 1 else "problems"
    where = "file" if files == 1 else "files"
    return f"{len(problems)} {noun} in {files} {where}"


def report(problems: list[Problem]) -> str:
    return "\n".join([*map(str, problems), summary_line(problems)])
