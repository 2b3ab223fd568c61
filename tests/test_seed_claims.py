"""Every sentence of the seed text is carried by statements that agree with it, or explain why not.

For each sentence, CLAIMS lists the statements that carry it and the statuses the seed's
wording implies. A statement whose status differs must cite the seed and say, in its
detail, what the seed says: the site shows the nuance instead of hiding it.
"""
import re

import pytest

from conftest import ROOT
from macros.data.catalog import build_catalog

SEED = ROOT / "docs" / "reference" / "seed.md"
SHARED_SEED = ROOT.parent / "shared" / "reference" / "seed-deepinfer-vs-vllm.txt"

S, V, N, D, X = {"supported"}, {"via-plugin"}, {"not-supported"}, {"documented"}, {"experimental"}
PARTIAL = {"partial"}

CLAIMS = {
    "Getting started with vLLM follows standard Python packaging conventions": [
        ("vllm", "pip-install", S), ("vllm", "prebuilt-kernels", S)],
    "Once installed, an engineer can instantly launch an OpenAI-compatible HTTP server": [
        ("vllm", "openai-server", S), ("vllm", "anthropic-api", S), ("vllm", "grpc", S), ("vllm", "streaming", S)],
    "DeepInfer foregoes packaged distributions entirely.": [("deepinfer", "pip-install", N)],
    "Teams must compile DeepInfer directly from source": [
        ("deepinfer", "build-from-source", S), ("deepinfer", "build-requirements", D)],
    "Furthermore, DeepInfer provides no built-in HTTP server": [
        ("deepinfer", "openai-server", N), ("deepinfer", "anthropic-api", N), ("deepinfer", "grpc", N)],
    "Workflows must be initiated offline from within local Python scripts": [("deepinfer", "python-api", S)],
    "The operational breadth of these two engines": [
        ("deepinfer", "model-breadth", PARTIAL), ("vllm", "model-breadth", S)],
    "DeepInfer is strictly single-model software": [
        ("deepinfer", "model-breadth", PARTIAL), ("deepinfer", "deepseek-v4-1-flash", S),
        ("deepinfer", "default-checkpoint", D)],
    "Hardware compatibility is equally focused": [
        ("deepinfer", "nvidia-sm100", S), ("deepinfer", "ascend-950", S), ("deepinfer", "nvidia-other", N),
        ("deepinfer", "amd-gpu", N)],
    "vLLM, conversely, serves more than two hundred Hugging Face model architectures": [
        ("vllm", f, S) for f in ("model-breadth", "decoder-only", "mixture-of-experts", "multimodal", "embedding",
                                 "hybrid-state-space", "deepseek-v4")],
    "Its hardware footprint spans standard NVIDIA GPUs": [
        *[("vllm", f, S) for f in ("nvidia-other", "amd-gpu", "intel-gpu", "cpu")],
        *[("vllm", f, V) for f in ("google-tpu", "intel-gaudi", "ibm-spyre", "ascend-npu", "rebellions-npu",
                                   "apple-silicon", "metax-gpu")]],
    "A critical technical trade-off lies in what software components ship": [
        ("vllm", "kv-cache-management", S), ("deepinfer", "kv-cache-management", N)],
    "vLLM delivers a complete serving architecture": [
        ("vllm", f, S) for f in ("paged-kv-cache", "prefix-caching", "continuous-batching", "chunked-prefill",
                                 "disaggregated-prefill-decode", "disaggregated-encode")],
    "DeepInfer explicitly discloses in its documentation": [("deepinfer", "kv-cache-management", N)],
    "It omits a Key-Value cache management system": [
        ("deepinfer", f, N) for f in ("kv-cache-management", "disaggregated-prefill-decode", "replica-load-balancing")],
    "While it includes decoder Sliding Window Attention bounded replay": [
        ("deepinfer", "swa-bounded-replay", S),
        *[("deepinfer", f, N) for f in ("kv-cache-management", "replica-load-balancing", "disaggregated-prefill-decode")]],
    "For teams with strict verification requirements": [
        ("deepinfer", "batch-invariance", S), ("deepinfer", "deterministic-sampling", S),
        ("deepinfer", "determinism-beyond-nvidia", N)],
    "For decoding throughput, DeepInfer uses DSpark": [
        ("deepinfer", "dspark", S), ("deepinfer", "confidence-scheduled-verification", S)],
    "vLLM also implements batch invariance": [("vllm", "batch-invariance", X)],
    "However, vLLM offers extensive alternative speculative decoding options": [
        ("vllm", f, S) for f in ("ngram", "suffix-decoding", "eagle", "dflash", "fp8", "nvfp4", "int4", "awq-gptq", "gguf")],
}


def seed_sentences() -> list[str]:
    body = " ".join(line.lstrip("> ").strip() for line in SEED.read_text(encoding="utf-8").splitlines()
                    if line.startswith(">"))
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Za-z])", body) if s]


@pytest.fixture(scope="module")
def catalog():
    return build_catalog(ROOT / "data")


def test_the_published_seed_is_the_shared_seed():
    if not SHARED_SEED.exists():
        pytest.skip("shared/ is not beside this checkout")
    shared = " ".join(SHARED_SEED.read_text(encoding="utf-8").split()[3:])  # after the title line
    published = " ".join(" ".join(seed_sentences()).split())
    assert published == shared


def test_every_sentence_of_the_seed_is_mapped():
    sentences = seed_sentences()
    assert len(sentences) == 20
    unmapped = [s for s in sentences if not any(s.startswith(key) for key in CLAIMS)]
    assert unmapped == []
    stale = [key for key in CLAIMS if not any(s.startswith(key) for s in sentences)]
    assert stale == []


@pytest.mark.parametrize("sentence", CLAIMS)
def test_claim_is_carried_or_its_difference_explained(catalog, sentence):
    for engine, feature, implied in CLAIMS[sentence]:
        statement = catalog.engines[engine].support.get(feature)
        assert statement is not None, f"{engine}/{feature} carries no statement for: {sentence}"
        if statement.status not in implied:
            assert "seed" in statement.sources and "seed" in statement.detail.lower(), (
                f"{engine}/{feature} is {statement.status}, but the seed implies {sorted(implied)}; "
                "its detail must say what the seed says, citing it")
