"""`make audit`: Lighthouse scores for the main pages of the built site.

Serves site/ on 127.0.0.1, runs Lighthouse (npm, tests/audit) in Debian's Chromium, prints
performance, accessibility and best-practices per page, and fails below the targets.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE = HERE.parent.parent / "site"
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
def pages() -> dict[str, str]:
    """The main pages; the comparison is the first pair in the data."""
    sys.path.insert(0, str(HERE.parent.parent))
    from macros.data.catalog import build_catalog

    a, b = build_catalog().pairs()[0]
    return {"home": "", "comparison": f"compare/{a.id}-vs-{b.id}/", "matrix": "matrix/", "guide": "guide/"}
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 95}
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> int:
    if not (SITE / "index.html").exists():
        print("build the site first: make build", file=sys.stderr)
        return 1
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROMIUM", "/usr/bin/chromium")}
    failed = []
    print(f"{'page':<12}" + "".join(f"{c:>16}" for c in TARGETS))
    for name, url in pages().items():
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "report.json"
            result = subprocess.run([str(LIGHTHOUSE), base + url, "--quiet", "--output=json", f"--output-path={report}",
                                     f"--only-categories={','.join(TARGETS)}", f"--chrome-flags={CHROME_FLAGS}",
                                     "--preset=desktop"], env=env, capture_output=True, text=True)
            if result.returncode != 0 or not report.exists():
                print(f"lighthouse failed on {name}: {result.stderr[-1500:]}", file=sys.stderr)
                return 1
            data = json.loads(report.read_text())
            categories = data["categories"]
        scores = {c: round(categories[c]["score"] * 100) for c in TARGETS}
        # what cost the points, so a reader knows what to fix
        lost = sorted({ref["id"] for c in TARGETS for ref in categories[c]["auditRefs"] if ref["weight"] > 0
                       and data["audits"][ref["id"]].get("score") is not None and data["audits"][ref["id"]]["score"] < 1})
        print(f"{name:<12}" + "".join(f"{scores[c]:>16}" for c in TARGETS) + (f"   lost on: {', '.join(lost)}" if lost else ""))
        failed += [f"{name} {c} {scores[c]} < {TARGETS[c]}" for c in TARGETS if scores[c] < TARGETS[c]]
    server.shutdown()
    print("targets: " + ", ".join(f"{c} >= {t}" for c, t in TARGETS.items()))
    for line in failed:
        print("MISSED: " + line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
