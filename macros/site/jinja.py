"""The one Jinja environment of the site: the templates under macros/site/templates, HTML-escaped
(autoescape), strict about undefined names, with the filters the templates use."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from macros.site.markdown import inline, plain

TEMPLATES = Path(__file__).parent / "templates"
# Characters XML 1.0 forbids (controls, lone surrogates, U+FFFE and U+FFFF): shown as escapes in XML outputs
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def shorten_url(url: str) -> str:
    """A long URL, shortened for reading: host and the last part of the path."""
    parts = urlsplit(url)
    tail = [p for p in parts.path.split("/") if p][-1:]
    return parts.netloc + ("/…/" + tail[0] if tail else "/")


def xml_text(text: str) -> str:
    """Text an XML element may hold: every character XML 1.0 forbids shown as an escape (the
    template's autoescape then escapes `&`, `<` and `>`), so the output stays well-formed."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m[0]):04x}", str(text))


def css_string(text: str) -> Markup:
    """Text inside a CSS string: every character but letters and digits as a CSS escape, so nothing
    a vocabulary entry holds can close the string or the rule."""
    return Markup("".join(c if c.isascii() and c.isalnum() else f"\\{ord(c):06x}" for c in str(text)))


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept for the life of the process. MkDocs makes the theme's environment anew
    for every build, so `mkdocs serve` would compile Material's templates again after each edit; Jinja
    checks each entry against its template's source, so an edited template is compiled afresh."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self._compiled:
            bucket.bytecode_from_string(self._compiled[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()


THEME_BYTECODE = MemoryBytecodeCache()


@lru_cache(maxsize=1)
def environment() -> Environment:
    # auto_reload off: a template never changes under a running build, and `mkdocs serve` imports this
    # module again after any edit under macros/ (macros/site/hooks.py); checking each template's file
    # on each use would cost a file system call per cell
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, auto_reload=False)
    env.filters["md"] = inline
    env.filters["plain"] = plain
    env.filters["shorten_url"] = shorten_url
    env.filters["xml_text"] = xml_text
    env.filters["css_string"] = css_string
    env.tests["clean_url"] = lambda text: bool(re.fullmatch(r"https://[^\s<>\"']+", text))
    env.filters["code"] = lambda text: Markup("<code>{}</code>").format(text)
    return env
