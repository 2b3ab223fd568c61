"""A generated catalog of any size, valid by construction: for the build benchmark
(50 engines, 300 features) and, small, for tests. The first two engines keep the ids
the hand-written pages name (deepinfer, vllm), so the real docs/ builds against it.
"""
from __future__ import annotations

import random
from pathlib import Path

STATUSES = ["supported", "supported", "partial", "experimental", "via-plugin", "not-supported", "unknown"]
CHECKED = "2026-11-01"


def _engine_ids(count: int) -> list[str]:
    return ["deepinfer", "vllm", *[f"engine-{i:03d}" for i in range(3, count + 1)]][:count]


def write_catalog(data_dir: Path, engines: int = 50, features: int = 300, per_category: int = 20, seed: int = 7) -> None:
    """Write features.yml, sources.yml, guide.yml and engines/*.yml under `data_dir`."""
    rng = random.Random(seed)
    data_dir = Path(data_dir)
    (data_dir / "engines").mkdir(parents=True, exist_ok=True)
    feature_ids = [f"feature-{i:03d}" for i in range(1, features + 1)]
    engine_ids = _engine_ids(engines)
    header = "# yaml-language-server: $schema=schema/{}.schema.json\n"

    lines = [header.format("features"), "categories:\n"]
    for start in range(0, features, per_category):
        number = start // per_category + 1
        lines += [f"  - id: category-{number:02d}\n", f"    name: Category {number}\n",
                  f"    description: Generated category {number}.\n", "    features:\n"]
        for fid in feature_ids[start:start + per_category]:
            lines += [f"      - id: {fid}\n", f"        name: Feature {fid[-3:]}\n",
                      f"        description: What generated {fid} does, and why a reader would care about it.\n"]
    (data_dir / "features.yml").write_text("".join(lines), encoding="utf-8")

    lines = [header.format("sources"), "sources:\n"]
    for eid in engine_ids:
        for kind in ("docs", "readme"):
            lines += [f"  - id: {eid}-{kind}\n", f"    title: {eid} {kind}\n",
                      f"    url: https://{eid}.example.org/{kind}/\n", f"    publisher: {eid} project\n",
                      f"    kind: {kind}\n", f"    checked: {CHECKED}\n"]
    (data_dir / "sources.yml").write_text("".join(lines), encoding="utf-8")

    for eid in engine_ids:
        lines = [header.format("engine").replace("schema/", "../schema/"), f"id: {eid}\n", f"name: Engine {eid}\n",
                 f"summary: A generated engine, {eid}, for the build benchmark.\n",
                 f"homepage: https://{eid}.example.org/\n", f"repository: https://{eid}.example.org/code/\n",
                 "license: Apache-2.0\n", "kind:\n  value: engine\n  detail: A generated engine.\n",
                 f"  sources: [{eid}-docs]\n", f"official-urls: [https://{eid}.example.org/]\n"]
        if eid == engine_ids[0] and len(engine_ids) > 1:  # one featured pair: pre-rendered however many engines
            lines.append(f"featured-comparisons: [{engine_ids[1]}]\n")
        lines += [f"sources: [{eid}-docs]\n", "support:\n"]
        for fid in feature_ids:
            status = rng.choice(STATUSES)
            lines += [f"  {fid}:\n", f"    status: {status}\n"]
            if status not in ("unknown", "not-supported") and rng.random() < 0.4:
                lines.append(f"    value: value {rng.randint(1, 99)}\n")
            lines.append(f"    detail: The [{eid} docs](https://{eid}.example.org/docs/) describe `{fid}` with *some* limits "
                         f"that a careful reader should know about before relying on it.\n")
            if status == "not-supported":
                lines.append("    basis: exhaustive-list\n")
            lines.append(f"    sources: [{eid}-docs, {eid}-readme]\n")
            if status == "unknown":
                lines.append(f"    searched: [https://{eid}.example.org/docs/]\n")
            lines.append(f"    checked: {CHECKED}\n")
        (data_dir / "engines" / f"{eid}.yml").write_text("".join(lines), encoding="utf-8")

    lines = [header.format("guide"), "needs:\n"]
    for i, fid in enumerate(feature_ids[:10]):
        lines += [f"  - id: need-{i:02d}\n", f"    label: Generated need {i}\n", "    why: Because the benchmark says so.\n",
                  "    requires:\n", f"      - feature: {fid}\n", "        statuses: [supported, partial]\n"]
    lines += ["build-yourself:\n", f"  - feature: {feature_ids[0]}\n", "    supply: The generated piece.\n"]
    (data_dir / "guide.yml").write_text("".join(lines), encoding="utf-8")
