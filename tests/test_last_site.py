"""The last build's files are written over, and the site ends as a clean build leaves it
(macros/site/last_site.py): nothing of the last build stays that this one did not write, no write
goes through a link or changes a file outside the site, and what MkDocs' cleaning keeps is kept."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError
from mkdocs.utils import clean_directory

from macros.site.last_site import HOLD, abandon, remove_unwritten, restore, set_aside
from sitebuild import build, differing_files, generated_project, small_project

# The last build's site: what a build writes again, what it no longer writes, and what is in the way
LAST = {"index.html": "old home", "gone.html": "a renamed page", "badges/a/x.svg": "old badge",
        "badges/removed/y.svg": "a removed engine's badge", "deep/.swap": "an editor's file",
        "search/index.json": "old index", "conflict.html/index.html": "a folder where a file goes",
        "folder": "a file where a folder goes"}
# This build: the files MkDocs knows it writes (`written`), and one a plugin writes at the end
WRITES = {"index.html": "home", "badges/a/x.svg": "badge", "link.html": "a page", "linked.svg": "a badge",
          "conflict.html": "a page", "folder/index.html": "a page"}
PLUGIN_WRITES = {"search/index.json": "index"}


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def a_build(site: Path, with_last_site: bool) -> None:
    """What MkDocs does to the site folder, and the hooks around it."""
    last = set_aside(str(site)) if with_last_site else None
    clean_directory(str(site))
    if last is not None:
        restore(last, [str(site / name) for name in WRITES])
    write_tree(site, WRITES)
    write_tree(site, PLUGIN_WRITES)
    if last is not None:
        remove_unwritten(last)


@pytest.fixture
def last_site(tmp_path) -> Path:
    site = tmp_path / "site"
    write_tree(site, LAST)
    (site / ".kept").write_text("MkDocs' cleaning keeps hidden entries", encoding="utf-8")
    write_tree(tmp_path, {"outside.txt": "not the site's", "outside.svg": "not the site's either"})
    (site / "link.html").symlink_to(tmp_path / "outside.txt")
    os.link(tmp_path / "outside.svg", site / "linked.svg")
    return site


def test_a_site_written_over_holds_what_a_clean_build_leaves(tmp_path, last_site):
    clean = tmp_path / "clean"
    write_tree(clean, {".kept": "MkDocs' cleaning keeps hidden entries"})
    a_build(clean, with_last_site=False)
    before = {name: (last_site / name).stat().st_ino for name in ("index.html", "badges/a/x.svg")}

    a_build(last_site, with_last_site=True)

    assert differing_files(clean, last_site) == []
    assert [name for name in before if (last_site / name).stat().st_ino != before[name]] == []  # written over
    assert (tmp_path / "outside.txt").read_text(encoding="utf-8") == "not the site's"  # not through the link
    assert (tmp_path / "outside.svg").read_text(encoding="utf-8") == "not the site's either"  # nor the hard link


def test_a_failed_build_leaves_nothing_of_the_last_one(last_site):
    last = set_aside(str(last_site))
    assert last is not None and (last_site / HOLD).is_dir()
    clean_directory(str(last_site))
    abandon(last)  # failed before on_env: the last build's files are still set aside
    assert sorted(p.name for p in last_site.iterdir()) == [".kept"]

    write_tree(last_site, LAST)
    last = set_aside(str(last_site))
    clean_directory(str(last_site))
    restore(last, [str(last_site / "index.html")])
    abandon(last)  # failed after on_env, before writing anything
    assert sorted(p.name for p in last_site.iterdir()) == [".kept"]


def test_nothing_outside_the_site_is_removed(tmp_path, last_site):
    last = set_aside(str(last_site))
    clean_directory(str(last_site))
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "sub").write_text("in a folder the site links to", encoding="utf-8")
    (last_site / HOLD / "elsewhere").symlink_to(tmp_path / "outside")
    # a folder where a file would go, a file where a folder would: removed inside the site, kept outside
    # it, and never reached through a link (`elsewhere/sub` is a file where the build needs a folder)
    restore(last, [str(tmp_path / "outside"), str(tmp_path / "outside.txt" / "index.html"),
                   str(last_site / "elsewhere" / "sub" / "index.html")])
    remove_unwritten(last)
    assert (tmp_path / "outside").is_dir() and (tmp_path / "outside.txt").is_file()
    assert (tmp_path / "outside" / "sub").is_file() and not (last_site / "elsewhere").exists()


def test_a_refused_change_to_the_site_folder_is_one_line_naming_the_file(last_site, monkeypatch):
    def refuse(source, target):
        raise PermissionError(13, "Permission denied", source)

    monkeypatch.setattr(os, "rename", refuse)
    with pytest.raises(PluginError, match=rf"^{last_site}/[a-z.]+: Permission denied \(the build empties"):
        set_aside(str(last_site))


def test_a_set_aside_left_by_a_stopped_build_is_removed(last_site):
    (last_site / HOLD).mkdir()
    (last_site / HOLD / "old.html").write_text("from a build that was killed", encoding="utf-8")
    last = set_aside(str(last_site))
    assert not (last_site / HOLD / "old.html").exists() and (last_site / HOLD / "index.html").is_file()
    abandon(last)


@pytest.mark.site
def test_a_site_built_over_another_equals_a_clean_build(tmp_path):
    """Four engines built, then three over them, equal three built anew; a `--dirty` build keeps the
    last build's files, as MkDocs means it to."""
    three, four = small_project(tmp_path / "three"), generated_project(tmp_path / "four", 4, 12)
    site, clean = tmp_path / "site", tmp_path / "clean"
    assert build(four, site).returncode == 0
    home = (site / "index.html").stat().st_ino
    result = build(three, site)
    assert result.returncode == 0, result.stderr
    assert build(three, clean).returncode == 0
    assert differing_files(clean, site) == []
    assert (site / "index.html").stat().st_ino == home  # written over, not made anew

    (site / "extra.txt").write_text("not written by a build", encoding="utf-8")
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    dirty = subprocess.run([mkdocs, "build", "--dirty", "-q", "-d", str(site)], cwd=three, capture_output=True,
                           text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"})
    assert dirty.returncode == 0, dirty.stderr
    assert (site / "extra.txt").is_file()
