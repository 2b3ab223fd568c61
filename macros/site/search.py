"""The search index, as Material's search plugin makes it, in a fraction of the time.

Material (9.8.2, pinned) reads each page's HTML with the standard library's HTMLParser and a
handler that tests every tag and every piece of text against the open elements with set
operations, then strips `data-search-*` attributes with a pattern tried at every character: on
this site's pages the largest single cost of a build. Here:

- `sections` reads a page written in plain HTML (what the templates and Python-Markdown write: tags
  with double-quoted or bare attributes, text, script and style without `<` inside) token by token
  with one regular expression, as HTMLParser reports it (tag and attribute names in lower case,
  character references resolved), and applies Material's rules in Material's order, with its own
  Element and Section classes. Those rules compare elements by tag name (Element.__eq__ and
  __hash__), so a count of open elements per tag answers what they ask of the list of open
  elements. Anything else (a comment, a declaration, a single quote, an unquoted value, a stray
  `<`) sends the page to Material's own parser;
- `strip_search_attributes` removes what Material's pattern removes, looking only where its text is;
- `install` puts both in place of one build's search plugin's page_context handler, when the
  installed Material is the version they reproduce; any other version keeps its own handler.

tests/test_fast_paths.py checks both against Material's own code: every page of the real site, and
generated HTML that mixes every rule.
"""
from __future__ import annotations

import re
from functools import partial
from html import escape, unescape

from macros.site.ahead import MISSING

MIRRORED = "9.8.2"  # the Material version whose search parser `sections` reproduces

_SPACE = "[ \t\n\r\f]"  # what HTMLParser takes as space between a tag name and its attributes
_TOKEN = re.compile(
    r"([^<]+)"  # text, up to the next tag
    rf"|<([a-zA-Z][a-zA-Z0-9]*)((?:{_SPACE}+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:=\"[^\"]*\")?)*){_SPACE}*(/?)>"
    r"|</([a-zA-Z][a-zA-Z0-9]*)>"
    r"|(<)")  # any other `<`: not plain HTML. Text takes every other character, so the tokens leave no gap
_ATTRIBUTE = re.compile(rf"{_SPACE}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:=\"([^\"]*)\")?")
# Elements whose content HTMLParser reads as raw text: script and style, allowed with no `<` inside.
# Later Python versions read these others as text too: they send the page to Material's parser, so
# the fast reading never depends on the Python version (noscript is raw text only to a parser that
# runs scripts, which HTMLParser never is).
_RAW = {"script", "style"}
_REFUSED = {"textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _NotPlain(Exception):
    """The page holds something besides plain tags and text: Material's own parser reads it."""


def sections(html: str, material) -> list | None:
    """The sections Material's Parser makes of a page, or None when the page is not plain HTML
    (material: Material's search plugin module, whose Element, Section and void list are used).
    Reads the page token by token as HTMLParser reports it, and applies each of Material's rules
    in the same order; the comments name the rule."""
    try:
        return _sections(html, material)
    except _NotPlain:
        return None


def _sections(html: str, material) -> list:
    Element, Section, void = material.Element, material.Section, material.void
    keep = {"p", "code", "pre", "li", "ol", "ul", "sub", "sup"}
    skip = {"object", "script", "style"}  # tag names: Material's set of Elements compares them by tag
    context: list = []  # the open elements
    count: dict[str, int] = {}  # open elements by tag: Material's `el in self.context`
    skipped = 0  # open elements whose tag is in skip: Material's `skip.intersection(context)`
    headerlinks = 0  # open <a class="headerlink">: text inside is not part of a title
    data: list = []
    section = None
    raw = None  # inside script or style: the tag whose end closes it
    for token in _TOKEN.finditer(html):
        kind = token.lastindex
        if kind == 6:
            raise _NotPlain
        if raw is not None:  # script or style: HTMLParser reads their content as raw text, up to their end tag
            if kind == 1:
                continue  # and Material ignores it: script and style are always in skip
            if kind != 5 or token[5].lower() != raw:
                raise _NotPlain
            raw = None
        if kind == 1:  # handle_data
            if skipped:
                continue
            text = unescape(token[1])
            pre = count.get("pre", 0) > 0
            if not pre:
                text = text.replace("\n", " ") if not text.isspace() else " "
            if not section:
                section = Section(Element("hx"))
                data.append(section)
            if count.get(section.el.tag, 0):  # inside the heading: its title, permalinks left out
                if not headerlinks:
                    section.title.append(escape(text, quote=False))
            elif text.isspace():  # whitespace collapsed, but inside pre
                if not section.text or not section.text[-1].isspace() or pre:
                    section.text.append(text)
            else:
                section.text.append(escape(text, quote=False))
            continue
        if kind == 4:  # handle_starttag (and handle_endtag after it for <tag/>)
            tag = token[2].lower()
            if tag in _REFUSED:
                raise _NotPlain
            # a bare name is None and `name=""` is "", as HTMLParser reports them
            attrs = {a[1].lower(): unescape(a[2]) if a[2] else a[2]
                     for a in _ATTRIBUTE.finditer(token[3])} if token[3] else {}
            if tag in void:
                continue  # Material keeps no void element open; its end tag finds nothing to close
            el = Element(tag, attrs)
            context.append(el)
            count[tag] = count.get(tag, 0) + 1
            if tag in skip:
                skipped += 1
            if tag == "a" and attrs.get("class") == "headerlink":
                headerlinks += 1
            if tag in HEADINGS and "id" in attrs:  # a heading with an id starts a section
                depth = len(context)
                if tag != "h1" and not data:
                    section = Section(Element("hx"), depth)
                    data.append(section)
                section = Section(el, depth)
                if data:
                    section.id = attrs["id"]
                data.append(section)
            if not section:  # text before the first heading
                section = Section(Element("hx"))
                data.append(section)
            if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
                if tag not in skip:
                    skip.add(tag)
                    skipped += count[tag]
                if not token[4] and tag in _RAW:
                    raw = tag
                continue
            if not skipped and tag in keep:
                (section.title if count.get(section.el.tag, 0) else section.text).append(f"<{tag}>")
            if not token[4]:
                if tag in _RAW:
                    raw = tag
                continue
        else:
            tag = token[5].lower()
        # handle_endtag
        if not context or context[-1].tag != tag:
            continue
        if section.depth > len(context):  # leaving the element a heading was in: back to the section outside
            for earlier in reversed(data):
                if earlier.depth <= len(context):
                    section.depth = float("inf")
                    section = earlier
                    break
        el = context.pop()
        count[tag] -= 1
        if tag == "a" and el.attrs.get("class") == "headerlink":
            headerlinks -= 1
        if tag in skip:
            skipped -= 1
            if tag not in ("script", "style", "object"):
                skip.discard(tag)
                skipped -= count[tag]
            continue
        if not skipped and tag in keep:  # an element with nothing but whitespace is dropped
            items = section.title if count.get(section.el.tag, 0) else section.text
            index = items.index(f"<{tag}>")
            for i in range(index + 1, len(items)):
                if not items[i].isspace():
                    index = len(items)
                    break
            if len(items) > index:
                del items[index:]
            else:
                items.append(f"</{tag}>")
    if raw is not None:
        raise _NotPlain
    return data


def material_sections(html: str, material) -> list:
    """The sections as Material's own Parser makes them."""
    parser = material.Parser()
    parser.feed(html)
    parser.close()
    return parser.data


# The sections of each page's HTML, from this build and the one before: `mkdocs serve` rebuilds in one
# process and keeps this module while the code is unchanged (macros/site/hooks.py), so a rebuild after
# a data edit reads again only the pages whose HTML changed. Two builds' worth at most.
_previous: dict[str, list] = {}
_current: dict[str, list] = {}


def _copy(found: list, Section) -> list:
    """Sections to hand out: Material's create_entry_for_section gives an untitled one the page's title."""
    copies = []
    for section in found:
        copy = Section(section.el, section.depth)
        copy.id, copy.title, copy.text = section.id, list(section.title), list(section.text)
        copies.append(copy)
    return copies


def _read(html: str, material) -> list:
    found = sections(html, material)
    return _copy(material_sections(html, material) if found is None else found, material.Section)


def page_sections(html: str, material, ahead) -> list:
    kept = _current.get(html) or _previous.get(html)
    if kept is None:
        kept = ahead.take(html)  # read in the second process, when there is one
        if kept is MISSING:
            kept = _read(html, material)
    _current[html] = kept
    return _copy(kept, material.Section)


def _excluded(page) -> bool:
    """A page whose front matter says `search: {exclude: true}`, as Material reads it."""
    return bool((page.meta.get("search") or {}).get("exclude"))


def ahead_jobs(pages) -> dict:
    """The sections of every page to be indexed, to be read in a second process (macros/site/ahead.py)
    while this one writes the pages: each page's HTML is final once every page is read (on_env). A
    page whose HTML has changed by the time it is indexed is not in the child's answers, and is read here."""
    from material.plugins.search import plugin as material

    return {page.content: partial(_read, page.content, material) for page in pages
            if page.content and not _excluded(page)
            and page.content not in _current and page.content not in _previous}


# What Material's on_page_context strips from every page after indexing it: `data-search-*` attributes
# with a value, and one space before each. Its pattern starts with an optional space, which the
# regular expression engine tries at every character of every page (half a second on the real
# site's 24 MB); this one starts with its literal text, and the space is looked at only where it matches.
_SEARCH_ATTRIBUTE = re.compile(r'data-search-\w+="[^"]+"')


def strip_search_attributes(content: str) -> str:
    """What `re.sub(r"\\s?data-search-\\w+=\"[^\"]+\"", "", content)` returns."""
    pieces, last = [], 0
    for match in _SEARCH_ATTRIBUTE.finditer(content):
        start = match.start()
        if start > last and content[start - 1].isspace():  # `\s?`: one space before, not the previous match's
            start -= 1
        pieces.append(content[last:start])
        last = match.end()
    if not pieces:
        return content
    pieces.append(content[last:])
    return "".join(pieces)


def add_entry_from_context(index, page, material, ahead) -> None:
    """Material's SearchIndex.add_entry_from_context, with the faster parser."""
    if _excluded(page):
        return
    for section in page_sections(page.content, material, ahead):
        if not section.is_excluded():
            index.create_entry_for_section(section, page.toc, page.url, page)


def install(config) -> bool:
    """Replace this build's search plugin's page_context handler with one that does what Material's
    does (index the page, strip `data-search-*` attributes) with the faster parts above, when the
    installed Material is the version they reproduce. Nothing else of the plugin changes, and only
    this build's list of handlers: the next build lists Material's own again, and installs again."""
    from importlib.metadata import version

    from material.plugins.search import plugin as material

    from macros.site.build import current

    plugin = config.plugins.get("material/search")
    events = config.plugins.events["page_context"]
    position = next((i for i, m in enumerate(events) if getattr(m, "__self__", None) is plugin), None)
    if plugin is None or position is None or version("mkdocs-material") != MIRRORED:
        return False

    def on_page_context(context, *, page, config, nav):  # Material's SearchPlugin.on_page_context
        if not plugin.config.enabled:
            return
        add_entry_from_context(plugin.search_index, page, material, current(config).ahead)
        page.content = strip_search_attributes(page.content)

    global _previous, _current
    _previous, _current = _current, {}
    events[position] = on_page_context
    return True
