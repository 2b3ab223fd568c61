"""Command line: `python -m macros check` (and the other commands listed by --help)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from macros.catalog import ROOT, build_catalog
from macros.problems import DataError


def describe(catalog) -> str:
    statements = sum(1 for _ in catalog.statements())
    return (f"{len(catalog.engines)} engines, {len(catalog.features)} features in {len(catalog.categories)} categories, "
            f"{statements} statements, {len(catalog.sources)} sources, {len(catalog.needs)} guide needs; "
            f"data as of {catalog.data_date}")


def check(args) -> int:
    try:
        catalog = build_catalog(Path(args.data), shown_from=Path.cwd())
    except DataError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"ok: {describe(catalog)}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros", description=__doc__)
    parser.add_argument("--data", default=str(ROOT / "data"), help="the data folder (default: %(default)s)")
    parser.add_argument("--debug", action="store_true", help="show a traceback on an internal error")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="check every data file; print each problem as path:line:col").set_defaults(run=check)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except Exception as error:  # a bug in this tool, never a data problem: those are reported above
        if args.debug:
            raise
        print(f"internal error: {type(error).__name__}: {error} (rerun with --debug and report it)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
