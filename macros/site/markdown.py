"""Inline Markdown for text from the data: escaped first, so data can never inject HTML.

Data text is short (a detail, a description), so a small, strict renderer is both
safer and far faster than running Python-Markdown once per cell: `code`, **strong**,
*emphasis* and [links](https://...). Anything else stays literal text.

Every pattern runs in linear time on hostile text: no span may contain its own opening
delimiter (link text no bracket, a URL no bracket or parenthesis, strong no `**`, emphasis no
`*`), so a failed attempt stops where the next one starts instead of rescanning to the end.
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\[\]]+)\]\((https://[^()\[\]\s]+|#[\w-]+)\)")
_STRONG = re.compile(r"\*\*(?=\S)((?:[^*\n]|\*(?!\*))+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")


def _spans(text: str) -> str:
    html = str(escape(text))
    html = _LINK.sub(lambda m: f'<a href="{m[2]}">{m[1]}</a>', html)
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    return _EM.sub(r"<em>\1</em>", html)


def inline(text: str) -> Markup:
    """Render inline Markdown to safe HTML; code spans are kept verbatim."""
    parts = []
    last = 0
    for match in _CODE.finditer(text or ""):
        parts.append(_spans(text[last:match.start()]))
        parts.append(f"<code>{escape(match[1])}</code>")
        last = match.end()
    parts.append(_spans((text or "")[last:]))
    return Markup("".join(parts))


def plain(text: str) -> str:
    """The same text without Markdown marks, for titles and exports."""
    text = _CODE.sub(r"\1", text or "")
    text = _LINK.sub(r"\1", text)
    return text.replace("**", "").replace("*", "")
