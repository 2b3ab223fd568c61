"""The original article, claim by claim, lives in data/seed-claims.yml: the published text is the
article word for word, and the rule that keeps each claim and its statements honest fires."""
import pytest

from conftest import ROOT, only

SHARED_SEED = ROOT.parent / "shared" / "reference" / "seed-deepinfer-vs-vllm.txt"


def test_the_published_claims_are_the_article_word_for_word(catalog):
    if not SHARED_SEED.exists():
        pytest.skip("shared/ is not beside this checkout")
    shared = " ".join(SHARED_SEED.read_text(encoding="utf-8").split()[3:])  # after the title line
    assert " ".join(" ".join(c.text for c in catalog.seed_claims).split()) == shared


def test_every_claim_and_verdict_is_on_the_seed_page(site, catalog):
    html = (site / "reference/seed/index.html").read_text(encoding="utf-8")
    for claim in catalog.seed_claims:
        assert f'id="claim-{claim.id}"' in html and f'id="rows-{claim.id}"' in html
    assert f"{len(catalog.seed_claims)} claims." in html


CLAIMS = """source: article
paragraphs:
  - claims:
      - id: alpha-has-no-server
        text: Alpha ships no server.
        verdict: {verdict}
        carried-by:
          - {{engine: alpha, feature: http-server, implies: [not-supported]}}
"""
ARTICLE = ("sources:\n  - id: article\n    title: The article\n    page: reference/seed.md\n    publisher: Someone\n"
           "    kind: claim\n    checked: 2026-01-01\n")


def problems_with(data, verdict, cite=False):
    data.write("seed-claims.yml", CLAIMS.format(verdict=verdict))
    if "id: article" not in data.file("sources.yml").read_text():
        data.replace("sources.yml", "sources:\n", ARTICLE)
    if cite:
        data.replace("engines/alpha.yml", "    detail: Ships a server.\n    sources: [alpha-docs]",
                     "    detail: Ships a server, though the original article says not.\n    sources: [alpha-docs, article]")
    return data.problems()


def test_a_statement_that_differs_from_its_claim_must_cite_the_article_and_say_so(data):
    problem = only(problems_with(data, "contradicted"), "but the original article implies not-supported")
    assert (problem.path, problem.line) == ("engines/alpha.yml", data.line_of("engines/alpha.yml", "Ships a server"))
    assert "cite `article`" in problem.tip
    assert problems_with(data, "contradicted", cite=True) == []


@pytest.mark.rule("seed_claims_hold")
def test_a_verdict_that_does_not_fit_its_statements(data):
    problem = only(problems_with(data, "confirmed", cite=True), "verdict 'confirmed' does not fit")
    assert (problem.path, problem.line) == ("seed-claims.yml", data.line_of("seed-claims.yml", "verdict:"))
    assert "refined or contradicted" in problem.tip


def test_a_claim_naming_a_statement_that_does_not_exist(data):
    data.write("seed-claims.yml", CLAIMS.format(verdict="confirmed").replace("feature: http-server", "feature: gone"))
    data.replace("sources.yml", "sources:\n", ARTICLE)
    assert only(data.problems(), "no statement alpha/gone").path == "seed-claims.yml"


def test_a_claim_on_a_misspelt_statement_leaves_the_message_to_the_engine_file(data):
    data.replace("engines/alpha.yml", "  http-server:", "  http-srver:")
    problems = problems_with(data, "contradicted", cite=True)
    assert [(p.path, p.message) for p in problems] == [("engines/alpha.yml", "unknown feature 'http-srver'")]


def test_a_claim_naming_a_former_id_says_what_to_write(data):
    data.replace("features.yml", "      - id: http-server\n", "      - id: http-endpoint\n        former-ids: [http-server]\n")
    for name in ("engines/alpha.yml", "engines/beta.yml"):
        data.replace(name, "  http-server:", "  http-endpoint:")
    data.replace("guide.yml", "feature: http-server", "feature: http-endpoint", count=2)
    problem = only(problems_with(data, "contradicted"), "no statement alpha/http-server to carry this claim")
    assert problem.tip == "'http-server' was renamed 'http-endpoint': write `feature: http-endpoint`"
