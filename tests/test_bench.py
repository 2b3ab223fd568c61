"""The benchmark's verdicts (macros/tools/bench.py): figures that are not measurements pass no target."""
from macros.tools.bench import per_page_growth


def test_per_page_growth_is_the_ratio_of_two_costs():
    assert per_page_growth(0.004, 0.005) == 0.005 / 0.004


def test_a_per_page_cost_of_zero_or_less_is_not_measured():
    # the start-up measured longer than the trivial build: 8x80 came out at -0.7 ms a page on a busy machine
    assert per_page_growth(-0.0007, 0.0042) is None
    assert per_page_growth(0.004, 0.0) is None
