"""Every file the site writes besides its pages: one module per format, each with a `NAME` and a
`files(build)` that returns {path under the site: text}, and one path that writes them all.

The build hands them to MkDocs with its pages (macros/site/hooks.py, on_files), and `python -m macros
export DIR` writes the same files, byte for byte, without MkDocs.
"""
from __future__ import annotations

from pathlib import Path

from macros.site.outputs import badges, feed, json_files, matrix_csv, pair_parts, pair_stubs, status_css

# In the order they are written; a format added to the site is added here (and to tests/test_hostile.py OUTPUTS).
OUTPUTS = (status_css, json_files, matrix_csv, badges, feed, pair_stubs, pair_parts)


def files(build) -> dict[str, str]:
    """Path under the site -> text, for every output the build names."""
    found: dict[str, str] = {}
    for output in build.outputs:
        with build.timed(f"output {output.NAME}"):
            found.update(output.files(build))
    return found


def write(build, target: Path) -> list[Path]:
    """Write every output under `target`; returns the files written."""
    written = []
    for name, text in files(build).items():
        path = Path(target) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
