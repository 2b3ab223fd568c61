"""The hashed lock files agree with the pinned requirements (make installs from the locks)."""
import shutil

from conftest import ROOT
from macros.tools.lock import LOCKS, lock_problems


def test_the_lock_files_match_the_requirements():
    assert lock_problems() == []


def _copy(tmp_path):
    for name in (*LOCKS, *LOCKS.values()):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_a_pin_changed_without_the_lock_is_refused(tmp_path):
    root = _copy(tmp_path)
    text = (root / "requirements.txt").read_text()
    (root / "requirements.txt").write_text(text.replace("Jinja2==3.1.6", "Jinja2==3.1.5"))
    found = lock_problems(root)
    # the runtime lock, and the dev lock through its `-r requirements.txt`
    assert [p.split(":")[0] for p in found] == ["requirements.lock.txt", "requirements-dev.lock.txt"]
    assert "jinja2 is 3.1.6, but requirements.txt (or what it includes) pins 3.1.5: run `make lock`" in found[0]


def test_a_new_requirement_without_the_lock_and_a_pin_without_hashes_are_refused(tmp_path):
    root = _copy(tmp_path)
    (root / "requirements-dev.txt").write_text((root / "requirements-dev.txt").read_text() + "coverage==7.0.0\n")
    lock = (root / "requirements.lock.txt").read_text()
    (root / "requirements.lock.txt").write_text(lock.replace("attrs==26.1.0 \\\n", "attrs==26.1.0\n", 1)
                                                .replace("    --hash=sha256:c647aa4a", "#", 1))
    found = lock_problems(root)
    assert any("requirements-dev.lock.txt: coverage is absent" in p for p in found)
    assert "requirements.lock.txt: attrs has no --hash: run `make lock`" in found
