"""Command line: `python -m macros check` (and the other commands listed by --help)."""
from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from macros.data.catalog import ROOT, build_catalog
from macros.data.problems import DataError, printable, report


def describe(catalog) -> str:
    statements = sum(1 for _ in catalog.statements())
    return (f"{len(catalog.engines)} engines, {len(catalog.features)} features in {len(catalog.categories)} categories, "
            f"{statements} statements, {len(catalog.sources)} sources, {len(catalog.needs)} guide needs; "
            f"data as of {catalog.data_date}")


def checked_catalog(args):
    """The checked catalog, or None after printing every problem: the data's, and those of
    anything else the build reads in the repository that holds it (special files, pages)."""
    from macros.site.pages import input_problems

    root = Path(args.data).resolve().parent
    refused = [p for p in input_problems(root) if not p.path.startswith("data/")]  # the data's own are below
    try:
        catalog = build_catalog(Path(args.data), shown_from=Path.cwd())
    except DataError as error:
        print(report(error.problems + refused), file=sys.stderr)
        return None
    if refused:
        print(report(refused), file=sys.stderr)
        return None
    return catalog


WARNINGS_SHOWN = 20  # per kind; the count says how many more


def check(args) -> int:
    import datetime as dt

    from macros.data.rules import run_warnings

    catalog = checked_catalog(args)
    if catalog is None:
        return 1
    print(f"ok: {describe(catalog)}")
    by_kind = run_warnings(catalog, dt.date.today(), args.max_age)
    for kind, found in by_kind.items():
        print(f"warning: {len(found)} × {kind}")
        for problem in found[:WARNINGS_SHOWN]:
            print(f"  {problem}")
        if len(found) > WARNINGS_SHOWN:
            print(f"  ... and {len(found) - WARNINGS_SHOWN} more")
    total = sum(len(found) for found in by_kind.values())
    if total:
        print(f"{total} warning{'s' if total != 1 else ''}: the data may merge, but look at them")
    return 0


def export(args) -> int:
    from macros.site import outputs
    from macros.site.build import SettingsError, outside_mkdocs

    catalog = checked_catalog(args)
    if catalog is None:
        return 1
    try:
        build = outside_mkdocs(catalog, Path(args.data).resolve().parent)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 1
    written = outputs.write(build, Path(args.dir))
    print(f"wrote {len(written)} files to {args.dir} (data as of {catalog.data_date}): "
          + ", ".join(output.NAME for output in build.outputs))
    return 0


def links(args) -> int:
    from macros.tools import links as registry

    catalog = checked_catalog(args)
    if catalog is None:
        return 1
    added = registry.update_registry(catalog, Path(args.site))
    broken = registry.broken_promises(Path(args.site))
    print(f"{len(added)} new promised links added to {registry.REGISTRY.relative_to(ROOT)}")
    for message in broken:
        print(message, file=sys.stderr)
    return 1 if broken else 0


def _shown(path: Path) -> str:
    """A path as `make check` prints it: relative to where the command runs, when it lies below."""
    import os

    try:
        return Path(os.path.abspath(path)).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def fmt(args) -> int:
    from ruamel.yaml.error import YAMLError

    from macros.data.canonical import reorder_file
    from macros.data.catalog import ENGINES, SCHEMA_DIR, TOP_FILES, read_catalog
    from macros.data.load import read_regular

    data = Path(args.data)
    catalog, _ = read_catalog(data, shown_from=Path.cwd())
    if "features.yml" in catalog.unread:  # it gives the order of every `support`: without it every key looks unknown
        print(printable(f"make fmt wrote nothing: {_shown(data / 'features.yml')} does not load, and it gives the order "
                        "of every engine's support; run `make check`"), file=sys.stderr)
        return 1
    files = [(data / name, schema) for name, schema in TOP_FILES.items()]
    files += [(path, "engine.schema.json") for path in sorted((data / ENGINES).glob("*.yml"))]
    changed, left = 0, []
    for path, schema in files:
        shown = printable(_shown(path))
        if path.is_symlink():  # a link could point anywhere: fmt writes only the repository's own files
            print(f"skipped {shown}: it is a symbolic link", file=sys.stderr)
            continue
        raw, problems = read_regular(path, shown)
        if raw is None:
            if path.exists():
                print(f"skipped {shown}: it {problems[0].message}", file=sys.stderr)
            continue
        try:
            reformatted, kept = reorder_file(path, raw.decode("utf-8"), schema, SCHEMA_DIR, list(catalog.features))
        except (YAMLError, UnicodeDecodeError) as error:
            print(f"skipped {shown}: it does not load ({type(error).__name__}); run `make check`", file=sys.stderr)
            continue
        if reformatted:
            changed += 1
            print(f"reformatted {shown}")
        left += [left_key_problem(shown, key) for key in kept if key.key not in catalog.broken_ids]  # check says why
    print(f"{changed} of {len(files)} files reformatted")
    for problem in left:
        print(problem, file=sys.stderr)
    if left:
        print(f"{len(left)} unknown key{'s' if len(left) != 1 else ''} left in place: fix, then run `make fmt` again",
              file=sys.stderr)
    return 1 if left else 0


def left_key_problem(shown: str, key):
    """What `make fmt` says of a key it did not move: a typo stays where the contributor wrote it."""
    from macros.data.problems import Problem, did_you_mean

    what = "not a feature of data/features.yml" if key.is_feature else "not a field here"
    known = did_you_mean(key.key, key.known, "feature" if key.is_feature else "field")
    tip = (f"{known}{' ' if known.endswith('?') else '. '}Fix the key, then run `make fmt` again" if known
           else "fix the key, then run `make fmt` again")
    return Problem(shown, key.line, key.col, f"left '{key.key}' where it is: {what}, so it has no place in the order", tip)


def diff(args) -> int:
    from macros.data.catalog import read_catalog
    from macros.data.changes import RevisionError, catalog_at, describe

    try:
        old = catalog_at(args.revision, Path(args.data))
    except RevisionError as error:
        print(printable(f"cannot read the data at {args.revision}: {error}"), file=sys.stderr)
        return 1
    new, _ = read_catalog(Path(args.data), shown_from=Path.cwd(), tolerant=True)  # a diff describes unfinished work too
    print(describe(old, new))
    return 0


def new_engine(args) -> int:
    from macros.data.catalog import ENGINES, read_catalog
    from macros.tools.scaffold import engine_file, refusals

    data = Path(args.data)
    catalog, _ = read_catalog(data, shown_from=Path.cwd())
    refused = refusals(catalog, data, args.id, args.name)
    for reason in refused:
        print(printable(f"cannot add the engine: {reason}"), file=sys.stderr)
    if refused:
        return 1
    path = data / ENGINES / f"{args.id}.yml"
    path.write_text(engine_file(catalog, args.id, args.name), encoding="utf-8")
    print(printable(f"wrote {path}: {len(catalog.features)} cells marked not-researched. Fill in the fields at the "
                    "top, then research each cell; `make check` lists what is left."))
    return 0


def twin(args) -> int:
    from macros.tools.twin import main as compare_builds

    return compare_builds(args.first, args.second)


def bench(args) -> int:
    from macros.tools.bench import main as run_bench

    return run_bench(args.engines, args.features, tests=not args.no_tests)


def _client_settings(args, tool: str):
    """The shared HTTP client's settings from the command line: timeouts and retries are options,
    so a test (or a slow mirror) can set them."""
    from macros.tools.http import Settings, user_agent

    return Settings(timeout=args.timeout, retries=args.retries, backoff=min(0.5, args.timeout / 4),
                    user_agent=user_agent(tool))


def _today(args):
    import datetime as dt

    return args.today or dt.date.today()


def _day(text: str):
    """A YYYY-MM-DD date typed by the operator (argparse type)."""
    import datetime as dt

    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _number(kind, least):
    """An argparse type for a number no smaller than `least`."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text} is less than {least}")
        return value
    return parse


def refresh(args) -> int:
    import json
    import os

    from macros.tools import refresh as tool
    from macros.tools.http import Client
    from macros.tools.refresh_write import write

    catalog = checked_catalog(args)
    if catalog is None:
        return 1
    client = Client(_client_settings(args, "refresh"), trusted=[args.pypi, args.github])
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    bases = {kind: base for kind, base in (("pypi", args.pypi), ("github", args.github)) if kind in (args.only or (kind,))}
    report = tool.run(catalog, client, bases, token, _today(args))
    print(json.dumps(tool.as_json(report), indent=2) if args.format == "json" else tool.as_text(report))
    if args.write:
        outcome = write(catalog, report, Path(args.data))
        shown = sys.stderr if args.format == "json" else sys.stdout
        if outcome.problems:
            print(printable("refresh --write wrote nothing: the result would fail `make check` (please report "
                            "this):"), file=sys.stderr)
            print(outcome.problems, file=sys.stderr)
            return 1
        skipped = sorted(eid for eid, engine_report in report.engines.items() if not engine_report.complete)
        nothing = "nothing written" if skipped else "nothing to write: the data records what the channels publish"
        for line in outcome.written or [nothing]:
            print(printable(f"write: {line}"), file=shown)
        if skipped:
            print(printable(f"write: skipped {', '.join(skipped)}: a channel failed, and half a picture is not "
                            "recorded (--only asks one kind of channel on purpose)"), file=shown)
    return tool.exit_code(report)


def verify_quotes(args) -> int:
    import json

    from macros.data.problems import did_you_mean
    from macros.tools import quotes as tool
    from macros.tools.http import Client

    try:
        rewrites = tool.parse_rewrites(args.rewrite)
    except tool.RewriteError as error:
        print(printable(error), file=sys.stderr)
        return 2
    catalog = checked_catalog(args)
    if catalog is None:
        return 1
    if args.engine and args.engine not in catalog.engines:
        print(printable(f"unknown engine '{args.engine}': {did_you_mean(args.engine, catalog.engines, 'engine')}"),
              file=sys.stderr)
        return 2
    client = Client(_client_settings(args, "verify-quotes"), trusted=[target for _, target in rewrites],
                    rewrite=tool.rewriter(rewrites))
    checks = tool.run(catalog, client, args.engine)
    print(json.dumps(tool.as_json(checks), indent=2) if args.format == "json" else tool.as_text(checks))
    return tool.exit_code(checks)


def freshness_summary(args) -> int:
    from macros.tools.summary import summary

    print(summary(Path(args.refresh), Path(args.quotes)))
    return 0


def _base_url(text: str) -> str:
    """An http(s) base URL typed by the operator (argparse type)."""
    from urllib.parse import urlsplit

    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// address")
    return text.rstrip("/")


def _network_options(parser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="the report's form (default: text)")
    parser.add_argument("--timeout", type=_number(float, 0.01), default=15.0, metavar="SECONDS",
                        help="to connect and for each read; a whole answer gets six times this (default: %(default)s)")
    parser.add_argument("--retries", type=_number(int, 0), default=2, metavar="N",
                        help="further attempts after a timeout, a dropped connection, 429 or 5xx (default: %(default)s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros", description=__doc__)
    parser.add_argument("--data", default=str(ROOT / "data"), help="the data folder (default: %(default)s)")
    parser.add_argument("--debug", action="store_true", help="show a traceback on an internal error")
    commands = parser.add_subparsers(dest="command", required=True)
    checker = commands.add_parser("check", help="check every data file; print each problem as path:line:col")
    checker.add_argument("--max-age", type=int, default=180, metavar="DAYS",
                         help="warn about statements checked longer ago than this (default: %(default)s days)")
    checker.set_defaults(run=check)
    exporter = commands.add_parser("export", help="write every file the site has besides its pages (downloads, badges, "
                                   "feed, pair addresses), as the build does")
    exporter.add_argument("dir", help="the folder to write into")
    exporter.set_defaults(run=export)
    commands.add_parser("fmt", help="rewrite data files in canonical key order, keeping comments").set_defaults(run=fmt)
    differ = commands.add_parser("diff", help="the data change since a git revision, in plain words (Markdown)")
    differ.add_argument("revision", nargs="?", default="HEAD", help="the revision to compare with (default: HEAD)")
    differ.set_defaults(run=diff)
    scaffold = commands.add_parser("new-engine", help="write data/engines/<id>.yml with every feature not-researched")
    scaffold.add_argument("--id", required=True, help="the engine id: kebab-case, also the file name")
    scaffold.add_argument("--name", required=True, help="the engine's name as the project writes it")
    scaffold.set_defaults(run=new_engine)
    twins = commands.add_parser("twin", help="compare two builds of the site, but for the generator tag")
    twins.add_argument("first")
    twins.add_argument("second")
    twins.set_defaults(run=twin)
    bencher = commands.add_parser("bench", help="build cost and growth: this site, and generated catalogs up to ENGINES x FEATURES")
    bencher.add_argument("--engines", type=int, default=50)
    bencher.add_argument("--features", type=int, default=300)
    bencher.add_argument("--no-tests", action="store_true", help="leave out the timing of make test")
    bencher.set_defaults(run=bench)
    linker = commands.add_parser("links", help="add the promised links of a built site to tests/promised-links.txt")
    linker.add_argument("--site", default=str(ROOT / "site"), help="the built site (default: %(default)s)")
    linker.set_defaults(run=links)
    refresher = commands.add_parser("refresh", help="compare each engine's release channels with its recorded releases")
    refresher.add_argument("--pypi", type=_base_url, default="https://pypi.org", metavar="URL",
                           help="the package index's base URL (default: %(default)s)")
    refresher.add_argument("--github", type=_base_url, default="https://api.github.com", metavar="URL",
                           help="GitHub's API base URL; GITHUB_TOKEN, when set, is sent there only (default: %(default)s)")
    refresher.add_argument("--only", action="append", choices=("pypi", "github"), metavar="KIND",
                           help="ask only this kind of channel, pypi or github (repeatable), for a machine that cannot "
                           "reach the other; --write then records what that kind alone publishes")
    refresher.add_argument("--write", action="store_true",
                           help="record the newest releases in latest-release and release-history, keeping comments")
    refresher.add_argument("--today", type=_day, metavar="YYYY-MM-DD", help="the day to count the last 90 days back from")
    _network_options(refresher)
    refresher.set_defaults(run=refresh)
    verifier = commands.add_parser("verify-quotes", help="fetch every quoted source and say whether its quote is still there")
    verifier.add_argument("--engine", default="", metavar="ID", help="only the sources this engine's data cites")
    verifier.add_argument("--rewrite", action="append", default=[], metavar="FROM=TO",
                          help="fetch every URL starting with FROM from TO plus the rest (a mirror); repeatable")
    _network_options(verifier)
    verifier.set_defaults(run=verify_quotes)
    summarise = commands.add_parser("freshness-summary",
                                    help="the refresh and verify-quotes JSON reports as Markdown, for a CI job summary")
    summarise.add_argument("refresh", help="refresh's JSON report")
    summarise.add_argument("quotes", help="verify-quotes' JSON report")
    summarise.set_defaults(run=freshness_summary)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # the reader went away (`make diff | head`): not an error of ours
        sys.stdout = None
        return 0
    except Exception as error:  # a bug in this tool, never a data problem: those are reported above
        if args.debug:
            raise
        print(printable(f"internal error: {type(error).__name__}: {error} (rerun with --debug and report it)"),
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    status = main()
    gc.freeze()  # the command is done: Python's last collection at exit need not walk all it made (the catalog)
    sys.exit(status)
