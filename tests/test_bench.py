"""The benchmark's verdicts (macros/tools/bench.py): figures that are not measurements pass no target."""
from macros.tools.bench import paired_ratio, per_page_growth


def test_per_page_growth_is_the_ratio_of_two_costs():
    assert per_page_growth(0.004, 0.005) == 0.005 / 0.004


def test_a_per_page_cost_of_zero_or_less_is_not_measured():
    # the start-up measured longer than the trivial build: 8x80 came out at -0.7 ms a page on a busy machine
    assert per_page_growth(-0.0007, 0.0042) is None
    assert per_page_growth(0.004, 0.0) is None


def test_the_build_ratio_is_the_median_of_each_pairs_ratio():
    # the machine slowed down for the last two pairs: each pair's ratio still says 2x
    pairs = [(4.0, 2.0), (4.2, 2.1), (3.8, 1.9), (8.0, 4.0), (8.4, 4.2)]
    assert paired_ratio(pairs) == 2.0
    # one floor run at a quick moment of the machine does not move the median
    assert paired_ratio([*pairs[:4], (8.4, 1.0)]) == 2.0
