"""Everything a pull request can touch besides the data's text: files under docs/ and the other
folders the build reads, Jinja in pages, the git history the feed reads. One test (or a few) per
class of attack, each showing the message a contributor sees."""
from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT, run_macros
from macros.site.pages import bounded_openings, template_problems
from macros.site.render import MACRO_NAMES
from sitebuild import build, small_project

SECRET = "di-secret-0f3a9c"  # an environment value and a .git/config token that must never reach the site


def plain_build(project, site, **env):
    """`mkdocs build` without --strict: the refusals must not depend on strict mode."""
    import sys

    mkdocs = os.path.join(os.path.dirname(sys.executable), "mkdocs")
    return subprocess.run([mkdocs, "build", "-d", str(site)], cwd=project, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true", **env})


def leaked(folder) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()] \
        if folder.exists() else []


# --- special files anywhere the build reads ------------------------------------------------

def test_links_and_special_files_under_docs_are_refused_by_check_and_by_a_plain_build(tmp_path):
    project = small_project(tmp_path / "project")
    (project / ".git").mkdir(exist_ok=True)
    (project / ".git/config").write_text(f"[http]\n\textraheader = AUTHORIZATION: basic {SECRET}\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.md").write_text(f"# Notes\n\n{SECRET}\n")
    links = {"docs/environ.md": "/proc/self/environ", "docs/git-config.txt": "../.git/config",
             "docs/elsewhere": str(outside), "docs/zero.bin": "/dev/zero", "macros/site/templates/x.html": str(outside)}
    for link, target in links.items():
        os.symlink(target, project / link)
    os.mkfifo(project / "docs/pipe.md")
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    for path in [*links, "docs/pipe.md"]:
        assert f"{path}:1:1: is " in check.stderr, path
    assert "is a symbolic link: the build never follows links, wherever they point" in check.stderr
    assert "tip: commit the file itself (a copy), not a link to it" in check.stderr
    assert "docs/pipe.md:1:1: is a named pipe (FIFO)" in check.stderr
    site = tmp_path / "site"
    result = plain_build(project, site, DI_TOKEN=SECRET)
    assert result.returncode != 0 and "docs/environ.md:1:1: is a symbolic link" in result.stderr
    assert leaked(site) == [] and leaked(tmp_path / "project" / "site") == []


def test_a_link_inside_the_repository_is_refused_too(tmp_path):
    project = small_project(tmp_path / "project")
    os.symlink("index.md", project / "docs/home-again.md")
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "docs/home-again.md:1:1: is a symbolic link" in check.stderr


def test_committed_compiled_code_is_refused_by_check_and_by_a_plain_build(tmp_path):
    """Python imports a module's compiled file, or an extension module, in place of its source, so a
    committed one hides code from review; a file that only looks like one in its name is fine."""
    project = small_project(tmp_path / "project")
    compiled = ["macros/site/__pycache__/hooks.cpython-311.pyc", "macros/data/__PYCACHE__/notes.txt", "stray.pyo",
                "macros/site/unused.cpython-311-x86_64-linux-gnu.so", "tools/old.PYC"]
    for path in [*compiled, "docs-notes/x__pycache__y.md", "macros/site/somewhere.so.md"]:
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_bytes(b"compiled")
    for args in (["init", "-q"], ["add", "-A"], ["add", "-f", "."]):
        subprocess.run(["git", *args], cwd=project, check=True)
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    refused = re.findall(r"^(\S+):1:1: is compiled code committed to the repository", check.stderr, re.M)
    assert sorted(refused) == sorted(compiled)
    subprocess.run(["git", "rm", "-q", "--cached", *compiled[1:]], cwd=project, check=True)  # on disk only: fine
    result = plain_build(project, tmp_path / "site", GIT_LITERAL_PATHSPECS="1")  # no pathspec: git's settings do not matter
    assert result.returncode != 0 and f"{compiled[0]}:1:1: is compiled code" in result.stderr
    assert "stray.pyo" not in result.stderr


def test_a_checkout_git_cannot_list_is_refused_not_passed(tmp_path):
    """Where git fails in a checkout, compiled code could not be looked for: the check says so."""
    project = small_project(tmp_path / "project")
    assert run_macros("check", cwd=project, data=project / "data").returncode == 0  # no checkout: nothing tracked
    (project / ".git").mkdir()  # a checkout git refuses (here: not a repository at all)
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    assert ".git:1:1: git cannot list this checkout's files" in check.stderr


def test_a_page_name_that_is_not_plain_is_refused(tmp_path):
    project = small_project(tmp_path / "project")
    (project / "docs/<img src=x onerror=alert(1)>.md").write_text("Hi\n")
    check = run_macros("check", cwd=project, data=project / "data")
    assert check.returncode == 1 and "has a name that is not plain" in check.stderr


# --- Jinja in pages ---------------------------------------------------------------------------

@pytest.mark.parametrize("page,line,expected", [
    ("x\n<!-- {{ cycler.__init__.__globals__.os.popen('id').read() }} -->\n", 2, "calls `cycler`, which is not one"),
    ("{% set x = 1 %}\n", 1, "contains a Jinja statement"),
    ("{% raw %}{{ x }}{% endraw %}\n", 1, "contains a Jinja statement"),
    ("a\n\n{# {{ config }} #}\n", 3, "contains a Jinja comment"),
    ("{{ config.extra }}\n", 1, "calls `config`, which is not one of the site's macros"),
    ("{{ matrix }}\n", 1, "uses `matrix` without calling it"),
    ('{{ compare("a", b) }}\n', 1, "passes `b` to `compare`: arguments are quoted strings or numbers"),
    ('{{ compare("a" ~ "b") }}\n', 1, "has `~` in the call of `compare`"),
    ("{{ home() | safe }}\n", 1, "has `|` after the call of `home`"),
    ("Look: {{ x\n", 1, "Jinja cannot read this page"),
])
def test_a_page_holds_only_macro_calls_with_literal_arguments(page, line, expected):
    found = template_problems("docs/page.md", page, MACRO_NAMES)
    assert found and found[0].line == line and expected in found[0].message, found
    assert "write {{ '{{' }}" in found[0].tip


def test_macro_calls_and_string_literals_are_allowed():
    page = '# Hi\n\n{{ home() }}\n\n{{ compare("vllm", "sglang") }} {{ "{{ shown as text }}" }} {{ data_date() }}\n'
    assert template_problems("docs/page.md", page, MACRO_NAMES) == []


def test_front_matter_is_never_a_template():
    page = '---\ntitle: "{{ 7*7 }}"\nhide:\n  - toc\n---\n\n# Page\n'
    found = template_problems("docs/page.md", page, MACRO_NAMES)
    assert [(p.line, p.message) for p in found] == [(2, "front matter contains `{{`: front matter is never a template")]


def test_jinja_in_a_page_stops_a_plain_build_before_anything_renders(tmp_path):
    project = small_project(tmp_path / "project")
    marker = tmp_path / "ran"
    (project / "docs/extra.md").write_text(f"# Extra\n\n<!-- {{{{ cycler.__init__.__globals__.os.system('touch {marker}') }}}} -->\n")
    result = plain_build(project, tmp_path / "site")
    assert result.returncode != 0 and "docs/extra.md:3:1: `{{ ... }}` calls `cycler`" in result.stderr
    assert not marker.exists()


def test_a_literal_written_as_the_tip_says_shows_as_text(tmp_path):
    project = small_project(tmp_path / "project")
    (project / "docs/extra.md").write_text("# Extra\n\nWrite {{ '{{ 7*7 }}' }} to show it.\n")
    result = build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert "Write {{ 7*7 }} to show it." in (tmp_path / "site/extra/index.html").read_text()


# --- Python-Markdown's unclosed openings -------------------------------------------------------

@pytest.mark.parametrize("line,opening", [("[a](" * 300, "]("), ("<http://a" * 100, "<"), ("[" * 500, "["),
                                          ("[a][" * 10 + "[b" + "c" * 300, "][")])
def test_an_unclosed_opening_is_refused_with_where_it_is(line, opening):
    found = bounded_openings("docs/page.md", "ok\n" + line + "\n")
    assert any(p.line == 2 and p.message.startswith(f"`{opening}` does not close") for p in found), found


def test_a_paragraph_with_too_many_brackets_is_refused_but_a_long_list_is_not():
    paragraph = "\n".join("[a][b] [c](https://x.example/)" for _ in range(20))
    found = bounded_openings("docs/page.md", "# T\n\n" + paragraph + "\n")
    assert [(p.line, p.message) for p in found] == [(3, "this paragraph holds more than 40 `[`")]
    listed = "\n".join("- [a][b] [c](https://x.example/)" for _ in range(20))
    assert bounded_openings("docs/page.md", listed) == []


def test_a_paragraph_with_too_many_asterisks_is_refused_but_emphasis_in_prose_is_not():
    paragraph = "\n".join("x " + "*a* **b** " * 60 for _ in range(3))  # 1080 `*` in one paragraph
    found = bounded_openings("docs/page.md", "# T\n\n" + paragraph + "\n\n" + "Some *emphasis* and **more**.\n")
    assert [(p.line, p.message) for p in found] == [(3, "this paragraph holds more than 1000 `*`")]
    many = "\n\n".join("x " + "*a* " * 200 for _ in range(60))  # 400 `*` per paragraph, 24000 in all
    found = bounded_openings("docs/page.md", many)
    assert [(p.line, p.message) for p in found] == [(101, "this page holds more than 20000 `*`")]  # the 51st


def test_ordinary_prose_with_links_and_tags_passes():
    page = "See [the guide](https://example.org/guide/) and <https://example.org/>, <b>bold</b>, [ref][x].\n"
    assert bounded_openings("docs/page.md", page) == []


# --- a feed that cannot be forged ----------------------------------------------------------------

HOSTILE_SUBJECTS = [
    "plain data change",
    "forged\x1fdeadbeef\x1f2026-01-01T00:00:00+00:00\x1fa forged entry",
    "line\u2028separator and \u0085 next line",
    "</title><entry><title>injected</title></entry>",
    "control \x01\x02\x0b\x0c characters \x1b[2K",
    "]]> <![CDATA[ & &amp; <",
]


def git(project, *args, **env):
    subprocess.run(["git", "-c", "user.name=Mallory <x@y>\x01", "-c", "user.email=m@example.org", *args],
                   cwd=project, check=True, capture_output=True,
                   env={**os.environ, "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00", **env})


def test_a_feed_from_hostile_commits_is_well_formed_with_one_entry_per_data_change(tmp_path, monkeypatch):
    from macros.site.outputs.feed import feed

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = small_project(tmp_path / "project")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "start")
    engine = sorted((project / "data/engines").glob("*.yml"))[0]
    for number, subject in enumerate(HOSTILE_SUBJECTS):
        engine.write_text(engine.read_text() + f"# change {number}\n")
        odd = project / "data" / f"x\x01\n{number}.txt"  # a hostile file name beside the change
        odd.write_text("x")
        git(project, "add", "-A")
        git(project, "commit", "-qm", subject)
        odd.unlink()
        git(project, "commit", "-qam", "tidy")
    (project / "docs/extra.md").write_text("# Not data\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "a change outside data/: no entry")
    text = feed(project, "", {})
    root = ET.fromstring(text)  # well-formed
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    expected = subprocess.run(["git", "log", "--format=%H", "--", "data"], cwd=project, capture_output=True,
                              text=True).stdout.split()
    assert [e.find("{http://www.w3.org/2005/Atom}id").text.rsplit(":", 1)[1] for e in entries] == expected
    titles = [e.find("{http://www.w3.org/2005/Atom}title").text for e in entries]
    assert "a forged entry" not in titles and not any(t == "injected" for t in titles)
    assert sum("forged" in t for t in titles) == 1


def test_the_repository_commits_no_symbolic_link():
    """A committed link (a `.venv` pointing at one machine's folder) breaks a fresh clone or reaches outside it."""
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert [line.split("\t", 1)[1] for line in listed.stdout.splitlines() if line.startswith("120000 ")] == []


@pytest.mark.parametrize("extra,named", [
    ({"build_processes": "two"}, "extra.build_processes is 'two'"),
    ({"build_processes": 0}, "extra.build_processes is 0"),
    ({"build_processes": True}, "extra.build_processes is True"),
    ({"build_processes": "\u0663"}, "extra.build_processes is '\u0663'"),  # an Arabic-Indic three: a digit, not 0-9
    ({"build_processes": "\u00b2"}, "extra.build_processes is '\u00b2'"),  # a superscript two: int() raised on it
    ({"pair_pages": {"every_pair_up_to": "x"}}, "extra.pair_pages.every_pair_up_to is 'x'"),
    ({"pair_pages": {"every_pair_up_to": -1}}, "extra.pair_pages.every_pair_up_to is -1"),
])
def test_a_setting_the_build_cannot_use_is_named_not_a_traceback(tmp_path, extra, named):
    """mkdocs.yml is in a pull request's reach too: a value the build cannot count with stops it
    with the setting's name and what it takes (on_config turns this into MkDocs' error line)."""
    from macros.site.build import SettingsError, settings_from

    with pytest.raises(SettingsError, match=re.escape(named) + ": it takes a whole number"):
        settings_from(extra, "", tmp_path, environ={})
    assert settings_from({"build_processes": 1, "pair_pages": {"every_pair_up_to": "3"}}, "", tmp_path,
                         environ={}).processes == 1
