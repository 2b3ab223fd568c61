"""The matrix in a spreadsheet: data/matrix.csv, one row per statement, RFC 4180 with its header
on the first line, stamped with the data date and the commit, formula-like cells neutralised."""
from __future__ import annotations

import csv
import io

from macros.data.model import Catalog
from macros.site.outputs.json_files import DATA_LICENSE

NAME = "CSV download"
CSV_COLUMNS = ["engine", "engine_name", "category", "feature", "feature_name", "status", "value", "detail",
               "sources", "checked", "data_as_of", "commit", "evidence", "since", "basis", "source_versions", "license"]
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def source_versions(catalog: Catalog, statement) -> str:
    """What the statement's sources describe: `id@version` or `id@commit`, space separated."""
    parts = []
    for sid in statement.sources:
        source = catalog.sources[sid]
        if source.version or source.commit:
            parts.append(f"{sid}@{source.version or source.commit[:10]}")
    return " ".join(parts)


def spreadsheet_safe(text: str) -> str:
    """The text with a leading apostrophe when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def matrix_csv(catalog: Catalog, commit: str) -> str:
    """One row per statement, header first (RFC 4180: CRLF line ends, quotes only where needed)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    level, data_as_of = catalog.levels, catalog.data_date
    for engine in catalog.engines.values():
        for category in catalog.categories:
            for feature in category.features:
                st = engine.support[feature.id]
                row = {"engine": engine.id, "engine_name": engine.name, "category": category.id,
                       "feature": feature.id, "feature_name": feature.name, "status": st.status,
                       "value": st.value, "detail": st.detail, "sources": " ".join(st.sources),
                       "checked": st.checked, "data_as_of": data_as_of, "commit": commit,
                       "evidence": level[(engine.id, feature.id)], "since": st.since, "basis": st.basis,
                       "source_versions": source_versions(catalog, st), "license": DATA_LICENSE}
                writer.writerow({key: spreadsheet_safe(value) for key, value in row.items()})
    return out.getvalue()


def files(build) -> dict[str, str]:
    return {"data/matrix.csv": matrix_csv(build.catalog, build.settings.commit)}
