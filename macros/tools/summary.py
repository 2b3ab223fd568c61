"""The weekly freshness job's summary: refresh's and verify-quotes' JSON reports as Markdown.

Everything in it came from the data or from the web (page text, server messages), so all of it is
shown as text: escaped like `make diff`'s output (controls, bidi and invisible characters as
escapes, see macros/data/problems.py) and with every Markdown character escaped, so a page cannot
add a link, an image or a heading to the summary.
"""
from __future__ import annotations

import json
import string
from pathlib import Path

from macros.data.problems import printable

_MARKDOWN = {c: f"\\{c}" for c in string.punctuation}  # CommonMark: any ASCII punctuation may be escaped
SHOWN = 40  # sources listed per result; the count says how many more


def md(value) -> str:
    """Any value as Markdown text: printable, on one line, every punctuation character escaped."""
    if value is None:
        return "–"
    text = printable(value).replace("\\n", " ").replace("\\t", " ")
    return "".join(_MARKDOWN.get(c, c) for c in text)


def _read(path: Path) -> tuple[dict | None, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return None, f"{path.name} could not be read ({type(error).__name__}): the step that writes it failed."
    return (data, "") if isinstance(data, dict) else (None, f"{path.name} is not a report.")


def _release(entry) -> str:
    if not isinstance(entry, dict):
        return "–"
    return f"{md(entry.get('version'))} ({md(entry.get('date') or 'no date')})"


def refresh_section(data: dict) -> list[str]:
    lines = ["## Release channels (`make refresh`)", ""]
    engines = data.get("engines") if isinstance(data.get("engines"), dict) else {}
    if engines:
        lines += ["| Engine | Recorded stable | Recorded pre-release | Newest stable | Newest pre-release | Behind "
                  "| Stale statements | Releases in 90 days | Median days apart |",
                  "|---|---|---|---|---|--:|--:|--:|--:|"]
        for engine_id, row in sorted(engines.items()):
            row = row if isinstance(row, dict) else {}
            cells = [md(engine_id), _release(row.get("recorded_stable")), _release(row.get("recorded_pre_release")),
                     _release(row.get("newest_stable")), _release(row.get("newest_pre_release")),
                     *(md(row.get(k)) for k in ("behind", "stale_statements", "releases_90d", "median_days"))]
            lines.append("| " + " | ".join(cells) + " |")
    else:
        lines.append("No engine names a release channel (`releases:` in its data).")
    errors = data.get("errors") if isinstance(data.get("errors"), list) else []
    if errors:
        lines += ["", "**Channels that failed**", ""]
        lines += [f"- {md(e.get('engine'))}: {md(e.get('message'))}" for e in errors if isinstance(e, dict)]
    return lines + [""]


def quotes_section(data: dict) -> list[str]:
    lines = ["## Quotes (`make verify-quotes`)", ""]
    counts = data.get("summary") if isinstance(data.get("summary"), dict) else {}
    lines += [", ".join(f"{md(counts.get(r, 0))} {r}" for r in ("found", "changed", "gone", "unreachable")) + ".", ""]
    sources = data.get("sources") if isinstance(data.get("sources"), dict) else {}
    for result, title in (("changed", "Changed: the page is there, the quote is not"), ("gone", "Gone (404, 410)"),
                          ("unreachable", "Unreachable")):
        found = [(sid, e) for sid, e in sorted(sources.items()) if isinstance(e, dict) and e.get("result") == result]
        if not found:
            continue
        lines += [f"### {title}", ""]
        for source_id, entry in found[:SHOWN]:
            status = f"HTTP {md(entry.get('http_status'))}" if entry.get("http_status") else "no answer"
            why = f": {md(entry.get('message'))}" if entry.get("message") else ""
            lines.append(f"- {md(source_id)}, {md(entry.get('url'))} ({status}{why})")
            if result == "changed":
                lines.append(f"  - quote: {md(entry.get('quote'))}")
                lines.append(f"  - closest on the page: {md(entry.get('closest') or 'nothing close')}")
        if len(found) > SHOWN:
            lines.append(f"- and {len(found) - SHOWN} more: see the report in the artifact")
        lines.append("")
    return lines


def summary(refresh_report: Path, quotes_report: Path) -> str:
    """Both reports as one Markdown page; a missing report is said, not fatal."""
    lines = ["# Data freshness", ""]
    for path, section in ((refresh_report, refresh_section), (quotes_report, quotes_section)):
        data, problem = _read(path)
        lines += section(data) if data is not None else [f"**{md(problem)}**", ""]
    lines.append("What to do with it: README.md, \"Keeping the data fresh\".")
    return "\n".join(lines)
