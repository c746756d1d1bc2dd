"""The checker must be able to fail, or its silence proves nothing."""

from checker import Section, violations


def test_flags_overlapping_sections() -> None:
    sections = [Section(1, "a", 0.0, 2.0), Section(2, "b", 1.0, 3.0)]
    assert any("overlap" in problem for problem in violations(sections))


def test_flags_tokens_that_do_not_rise() -> None:
    sections = [Section(5, "a", 0.0, 1.0), Section(5, "b", 1.5, 2.0)]
    assert any("token" in problem for problem in violations(sections))


def test_accepts_ordered_disjoint_sections() -> None:
    sections = [Section(1, "a", 0.0, 1.0), Section(2, "b", 1.0, 2.0), Section(7, "a", 3.0, 4.0)]
    assert violations(sections) == []
