"""What a fetched page says, as text, and whether a quote is in it.

HTML goes through a real parser (lxml): scripts, styles and comments are dropped, block
elements break lines. Plain text (a raw file, a README) is read as it is, and a member of a
source archive (`...tar.gz#pkg-1.0/setup.py`) is read out of the archive. Then both the page
and the quote are normalised the same way, so typography is not mistaken for a change: Unicode
compatibility forms, typographic quotes and dashes, runs of whitespace, Markdown code ticks.
"""
from __future__ import annotations

import io
import tarfile
import unicodedata

# Elements whose text is not what a reader sees on the page.
HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "title", "svg", "math", "iframe", "object"})
# Elements that start a new line, so two paragraphs never run into one word.
BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
                    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
                    "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td",
                    "th", "tr", "ul"})
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/x-yaml", "application/yaml")
ARCHIVE_TYPES = ("application/gzip", "application/x-gzip", "application/x-tar", "application/x-bzip2",
                 "application/x-xz", "application/octet-stream")
ARCHIVE_MEMBERS_READ = 100_000  # members walked at most, looking for the one a URL names
ARCHIVE_BYTES_READ = 512 * 1024 * 1024  # uncompressed bytes walked at most: an archive bomb stops here
MEMBER_BYTES = 8 * 1024 * 1024

# Typographic characters and their plain forms.
_PLAIN = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'", "`": "",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u2026": "...", "\u00ad": None, "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
})


class NotText(Exception):
    """The answer is not a page whose text can be read (an image, a binary, a missing archive member)."""


def normalise(text: str) -> str:
    """`text` with typography made plain and whitespace collapsed, for comparing quote and page.
    Code ticks go too: a quote written in Markdown (`serve`) matches the rendered page (serve)."""
    text = unicodedata.normalize("NFKC", text).translate(_PLAIN)
    return " ".join(text.split())


def html_text(body: bytes, charset: str = "") -> str:
    """The visible text of an HTML page, one block per line."""
    import lxml.etree
    import lxml.html

    source = _decoded(body, charset)
    try:
        root = lxml.html.document_fromstring(source)
    except (lxml.etree.ParserError, ValueError):  # an empty page, or a str with an encoding declaration
        try:
            root = lxml.html.document_fromstring(body)
        except (lxml.etree.ParserError, ValueError):
            return ""
    return _walk_text(root)


def _decoded(body: bytes, charset: str) -> str | bytes:
    """The page as text when its encoding is known (the header, or valid UTF-8); else the bytes,
    for the parser to read the page's own <meta charset>."""
    for encoding in (charset, "utf-8"):
        if not encoding:
            continue
        try:
            return body.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    return body


def _walk_text(root) -> str:
    """Text and tails in document order, skipping hidden elements, without recursion (a deeply
    nested hostile page cannot exhaust the stack)."""
    import lxml.etree

    parts: list[str] = []
    hidden_depth = 0
    for event, element in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = element.tag.lower() if isinstance(element.tag, str) else None  # None: a comment or instruction
        if event == "start":
            if tag in HIDDEN:
                hidden_depth += 1
            elif tag and not hidden_depth:
                parts.append("\n" if tag in BLOCKS else "")
                parts.append(element.text or "")
            continue
        if tag in HIDDEN:
            hidden_depth -= 1
        if not hidden_depth:
            parts.append("\n" if tag in BLOCKS else "")
            parts.append(element.tail or "")
    return "".join(parts)


def archive_member_text(body: bytes, member: str) -> str:
    """The text of one file inside a tar archive (gzip, bzip2 or xz), walked as a stream with caps."""
    walked = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(body), mode="r|*") as archive:
            for count, entry in enumerate(archive):
                walked += entry.size
                if count >= ARCHIVE_MEMBERS_READ or walked > ARCHIVE_BYTES_READ:
                    break
                if entry.name == member and entry.isfile():
                    handle = archive.extractfile(entry)
                    return handle.read(MEMBER_BYTES).decode("utf-8", errors="replace") if handle else ""
    except (tarfile.TarError, EOFError, OSError, ValueError) as error:
        raise NotText(f"the archive does not open ({type(error).__name__})") from None
    raise NotText(f"the archive has no file {member}")


def page_text(body: bytes, content_type: str, charset: str = "", member: str = "") -> str:
    """What the answer says, as text: HTML through the parser, text as it is, an archive's member."""
    if member and (content_type in ARCHIVE_TYPES or not content_type.startswith(TEXT_TYPES)):
        return archive_member_text(body, member)
    if content_type in ("text/html", "application/xhtml+xml") or (not content_type and body.lstrip()[:1] == b"<"):
        return html_text(body, charset)
    if content_type.startswith(TEXT_TYPES) or not content_type:
        decoded = _decoded(body, charset)
        return decoded if isinstance(decoded, str) else body.decode("latin-1")
    raise NotText(f"the answer is {content_type}, not a page of text")


def contains_quote(text: str, quote: str) -> bool:
    """The quote is on the page, once both are normalised."""
    wanted = normalise(quote)
    return bool(wanted) and wanted in normalise(text)


def closest_passage(text: str, quote: str, limit: int = 500_000) -> str:
    """The passage of the page most like the quote, for a reviewer to compare ("" when none is
    close): around the longest run of the quote's words that the page holds, three words at least.
    Plain substring searches, longest first: no quadratic matching on a large page."""
    page, wanted = normalise(text)[:limit], normalise(quote)
    words = wanted.split(" ")
    for size in range(len(words), 2, -1):
        for first in range(len(words) - size + 1):
            at = page.find(" ".join(words[first:first + size]))
            if at >= 0:
                before = len(" ".join(words[:first])) + (1 if first else 0)
                return _whole_words(page, at - before - 20, at - before + len(wanted) + 20)
    return ""


def _whole_words(text: str, start: int, end: int, reach: int = 30) -> str:
    """text[start:end], widened to whole words at both ends (by `reach` characters at most:
    a page without spaces must not turn the passage into the whole page)."""
    start, end = max(0, start), min(len(text), end)
    floor, ceiling = max(0, start - reach), min(len(text), end + reach)
    while start > floor and text[start - 1] != " ":
        start -= 1
    while end < ceiling and text[end] != " ":
        end += 1
    return text[start:end].strip()
