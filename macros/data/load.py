"""Strict YAML loading: every surprise becomes a Problem with file, line and column.

PyYAML's safe loader quietly keeps the last of two duplicate keys, reads `no` as
False and `2026-11-29` as a date object. Here the C parser builds the node tree and
we construct plain values ourselves: text stays exactly as written, and every value
remembers where it came from so that later rules can point at it.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from macros.data.inputs import refusal
from macros.data.problems import Problem

try:  # the C parser is several times faster; fall back where libyaml is missing
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover
    from yaml.loader import Reader, Scanner, Parser, Composer

    class _Parser(Reader, Scanner, Parser, Composer):
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)


class _Loader(_Parser, yaml.resolver.BaseResolver):
    """Parse and compose only. Plain scalars are classified in _Builder.scalar, which needs
    just three answers (boolean? null? date?) rather than YAML's full set of implicit types."""

    _TAGS = {yaml.ScalarNode: "tag:yaml.org,2002:str", yaml.SequenceNode: "tag:yaml.org,2002:seq",
             yaml.MappingNode: "tag:yaml.org,2002:map"}

    def __init__(self, stream):
        _Parser.__init__(self, stream)
        yaml.resolver.BaseResolver.__init__(self)

    def resolve(self, kind, value, implicit):
        return self._TAGS[kind]

Pointer = tuple  # a path into the document: ("support", "gguf", "status")

MAX_BYTES = 2 * 1024 * 1024  # the biggest engine file is a few dozen KB
MAX_DEPTH = 64  # data files are five or six levels deep


_YAML12_BOOLEANS = {"true": True, "false": False}
# YAML 1.1 reads these as booleans; we refuse them, so that `status: no` never turns into False
_YAML11_BOOLEANS = {"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
                    "y", "Y", "n", "N", "True", "TRUE", "False", "FALSE"}
_NULLS = {"", "~", "null", "Null", "NULL"}
_DATE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}.*)?$")


@dataclass
class Document:
    """One loaded file: plain data plus the line and column of every value and key."""

    path: str
    data: object = None
    positions: dict = field(default_factory=dict)  # Pointer -> (line, col) of the value
    key_positions: dict = field(default_factory=dict)  # Pointer -> (line, col) of the key
    schema: str = ""  # the JSON Schema this document follows, once known

    def where(self, pointer: Pointer = (), key: bool = False) -> tuple[int, int]:
        """The position of `pointer`, or of its nearest ancestor that has one."""
        table = self.key_positions if key else self.positions
        pointer = tuple(pointer)
        while pointer:
            if pointer in table:
                return table[pointer]
            if pointer in self.positions:
                return self.positions[pointer]
            pointer = pointer[:-1]
        return self.positions.get((), (1, 1))

    def problem(self, pointer: Pointer, message: str, tip: str = "", key: bool = False) -> Problem:
        line, col = self.where(pointer, key=key)
        return Problem(self.path, line, col, message, tip)


def _position(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    def __init__(self, doc: Document, date_keys: frozenset):
        self.doc = doc
        self.date_keys = date_keys
        self.problems: list[Problem] = []
        self.seen: set[int] = set()

    def fail(self, node, message: str, tip: str = "") -> None:
        line, col = _position(node)
        self.problems.append(Problem(self.doc.path, line, col, message, tip))

    def build(self, node, pointer: Pointer):
        if len(pointer) > MAX_DEPTH:
            self.fail(node, f"nested deeper than {MAX_DEPTH} levels", "data files are a few levels deep: "
                      "check the indentation, or the brackets on this line")
            return None
        if id(node) in self.seen:
            self.fail(node, "anchors and aliases (&name, *name) are not allowed",
                      "write the value out in full, so each record reads on its own")
            return None
        self.seen.add(id(node))
        self.doc.positions[pointer] = _position(node)
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, pointer)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, pointer + (i,)) for i, item in enumerate(node.value)]
        return self.scalar(node, pointer)

    def mapping(self, node, pointer: Pointer) -> dict:
        result: dict = {}
        first_line: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or (key_node.value == "<<" and not key_node.style):
                self.fail(key_node, "keys must be plain text (no merge keys `<<`, lists or mappings as keys)")
                continue
            key = self.scalar(key_node, pointer + ("<key>",))
            if not isinstance(key, str):
                key = key_node.value
            if key in result:
                self.fail(key_node, f"duplicate key '{key}' (first at line {first_line[key]})",
                          "YAML would silently keep only the last one: merge the two or rename one")
                continue
            first_line[key] = key_node.start_mark.line + 1
            self.doc.key_positions[pointer + (key,)] = _position(key_node)
            result[key] = self.build(value_node, pointer + (key,))
        return result

    def scalar(self, node, pointer: Pointer):
        text = node.value
        if node.style or node.tag != "tag:yaml.org,2002:str":  # quoted, block or explicitly tagged: text
            return text
        if text in _YAML12_BOOLEANS:
            return _YAML12_BOOLEANS[text]
        if text in _YAML11_BOOLEANS:
            self.fail(node, f"'{text}' is read as a yes/no boolean by YAML 1.1",
                      f"write \"{text}\" in quotes if you mean the text, or true/false for a boolean")
            return text
        if text in _NULLS:
            return None
        if text[:1].isdigit() and _DATE.match(text):
            if pointer and pointer[-1] not in self.date_keys:
                self.fail(node, f"'{text}' is read as a date by YAML, but this field holds text",
                          f"write \"{text}\" in quotes")
        # numbers and dates stay exactly as written: `1.10` is not 1.1, `010` is not 8
        return text


def _decode(raw: bytes, path: str) -> tuple[str | None, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = error.start - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(path, line, col, f"byte 0x{raw[error.start]:02x} is not UTF-8",
                              "save the file as UTF-8")]
    return text.removeprefix("\ufeff"), []


def _tabs(text: str, path: str) -> list[Problem]:
    return [
        Problem(path, number, line.index("\t") + 1, "tab character", "indent and separate with spaces, never tabs")
        for number, line in enumerate(text.splitlines(), start=1)
        if "\t" in line
    ]


def parse(text: str, path: str, date_keys=frozenset()) -> tuple[Document, list[Problem]]:
    """Parse YAML text into a Document; problems are returned, never raised."""
    doc = Document(path)
    problems = _tabs(text, path)
    if problems:
        return doc, problems
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(filter(None, [error.context, error.problem])) or "invalid YAML"
        return doc, [Problem(path, line, col, f"invalid YAML: {message}",
                             "check the indentation and quoting on this line and the one before")]
    except yaml.YAMLError as error:
        return doc, [Problem(path, 1, 1, f"invalid YAML: {error}")]
    if root is None:
        return doc, [Problem(path, 1, 1, "the file is empty", "it must hold a mapping of keys to values")]
    if not isinstance(root, yaml.MappingNode):
        line, col = _position(root)
        return doc, [Problem(path, line, col, "the document is not a mapping of keys to values",
                             "start with `key: value` lines at the left margin")]
    builder = _Builder(doc, frozenset(date_keys))
    doc.data = builder.build(root, ())
    return doc, builder.problems

def read_regular(path: Path, shown_as: str) -> tuple[bytes | None, list[Problem]]:
    """The bytes of a regular file, or a problem naming the path.

    A pull request can put anything where a data file should be: a symbolic link (to a file
    outside the repository, to /proc/self/environ), a named pipe (reading it would wait
    forever), a device, a folder or a huge file. None of them is read."""
    def refuse(message, tip=""):
        return None, [Problem(shown_as, 1, 1, message, tip)]

    try:
        if Path(path).is_symlink():
            return refuse(*refusal(stat.S_IFLNK))
        # O_NONBLOCK: opening a named pipe must not wait for a writer; O_NOFOLLOW: a link put in
        # place after the look above is refused too
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as error:
        return refuse(f"cannot be read: {error.strerror}")
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        if stat.S_ISDIR(mode):
            return refuse("is a folder, not a data file", "data files are plain text files")
        return refuse(*refusal(mode))
    with os.fdopen(descriptor, "rb") as handle:
        raw = handle.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        return refuse(f"is larger than {MAX_BYTES // (1024 * 1024)} MB", "a data file is a few dozen KB: split it, "
                      "or check that it is the file you meant to commit")
    return raw, []


def load(path: Path, shown_as: str | None = None, date_keys=frozenset()) -> tuple[Document, list[Problem]]:
    """Load one YAML file strictly. `shown_as` is the path printed in messages; only a regular
    file is read."""
    name = shown_as or str(path)
    raw, problems = read_regular(Path(path), name)
    if raw is None:
        return Document(name), problems
    text, problems = _decode(raw, name)
    if text is None:
        return Document(name), problems
    return parse(text, name, date_keys)
