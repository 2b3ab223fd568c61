"""View models: what a template draws, computed from the catalog, as named records. Templates
receive these and hold no data logic of their own."""
from __future__ import annotations

from dataclasses import dataclass

from macros.data.model import Catalog, Category, Engine, Feature, Statement, Status


@dataclass(frozen=True)
class GridCell:
    engine: Engine
    statement: Statement
    status: Status


@dataclass(frozen=True)
class GridRow:
    feature: Feature
    cells: list[GridCell]


@dataclass(frozen=True)
class Grid:
    """A category drawn as a grid of symbols (the home page's hardware at a glance): one symbol and
    word per cell, from the status vocabulary, and a key naming only the kinds the grid uses."""

    category: Category
    engines: list[Engine]
    rows: list[GridRow]
    key: list[Status]  # the first status of each strength the grid uses: its symbol, and the strength's word


def grid(catalog: Catalog, category: Category, engines: list[Engine]) -> Grid:
    rows = [GridRow(f, [GridCell(e, e.support[f.id], catalog.statuses[e.support[f.id].status]) for e in engines])
            for f in category.features]
    used = {cell.status.strength.id for row in rows for cell in row.cells}
    key, seen = [], set()
    for status in catalog.statuses.values():
        if status.strength.id in used and status.strength.id not in seen:
            key.append(status)
            seen.add(status.strength.id)
    return Grid(category, engines, rows, key)
