"""What an engine's data was checked against, in releases, for the engine and data-quality pages."""
from conftest import TODAY
from macros.data.freshness import checked_against_release

ALPHA = "engines/alpha.yml"
LATEST = ("latest-release:\n  stable:\n    version: {version}\n    date: 2026-01-01\n    sources: [alpha-docs]\n"
          "  pre-release:\n    version: v1.3.0rc2\n    date: 2026-01-20\n    sources: [alpha-docs]\n")
HISTORY = ("release-history:\n  - {version: 1.3.0rc2, date: 2026-01-20, pre-release: true}\n"
           "  - {version: 1.2.1, date: 2026-01-12}\n  - {version: 1.3.0rc1, date: 2026-01-09, pre-release: true}\n"
           "  - {version: 1.2.0, date: 2026-01-01}\n  - {version: 1.1.9, date: 2025-12-20}\n")


def engine(data, name="alpha"):
    from macros.data.catalog import build_catalog

    return build_catalog(data.path, today=TODAY, shown_from=data.path).engines[name]


def record(data, latest: str, history: str = ""):
    data.replace(ALPHA, "sources: [alpha-docs]\nsupport:", latest + history + "sources: [alpha-docs]\nsupport:")


def test_checked_against_the_stable_release_with_the_releases_since(data):
    record(data, LATEST.format(version="v1.2.0"), HISTORY)
    against = checked_against_release(engine(data))
    assert (against.version, against.date, against.releases_since, against.pre_releases_since) == \
        ("v1.2.0", "2026-01-01", 3, 2)
    assert against.since == "3 releases since (2 of them pre-releases)"


def test_one_none_or_unknown_releases_since(data):
    newest = "  - {version: 1.3.0rc2, date: 2026-01-20, pre-release: true}\n"
    record(data, LATEST.format(version="v1.2.1"), "release-history:\n" + newest + "  - {version: 1.2.1, date: 2026-01-12}\n")
    assert checked_against_release(engine(data)).since == "1 pre-release since, no newer stable release"
    data.replace(ALPHA, newest, "")
    assert checked_against_release(engine(data)).since == "no release since"
    data.replace(ALPHA, "release-history:\n  - {version: 1.2.1, date: 2026-01-12}\n", "")
    against = checked_against_release(engine(data))  # no history recorded: how many is unknown, not zero
    assert against.releases_since is None and against.since == ""
    assert checked_against_release(engine(data, "beta")) is None  # no release recorded at all


def test_a_recorded_version_that_is_not_one_counts_by_date(data):
    record(data, LATEST.format(version="b7123").split("  pre-release:")[0], HISTORY)
    against = checked_against_release(engine(data))
    assert (against.releases_since, against.pre_releases_since) == (3, 2)  # those dated after 2026-01-01
