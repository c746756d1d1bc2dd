"""Judges mutual exclusion by its effects: critical sections recorded as
(token, owner, start, end) on the host-wide monotonic clock must never overlap,
and fencing tokens must rise in the order the sections began."""

from __future__ import annotations

from typing import NamedTuple, Sequence


class Section(NamedTuple):
    token: int
    owner: str
    start: float
    end: float


def violations(sections: Sequence[Section]) -> list[str]:
    found = []
    ordered = sorted(sections, key=lambda section: section.start)
    for before, after in zip(ordered, ordered[1:]):
        if after.start < before.end:
            found.append(f"overlap: {before} and {after}")
        if after.token <= before.token:
            found.append(f"token not rising: {before} then {after}")
    return found


def assert_exclusive(sections: Sequence[Section], expected: int) -> None:
    assert len(sections) == expected, f"{len(sections)} sections recorded, expected {expected}"
    problems = violations(sections)
    assert not problems, "\n".join(problems[:10])
