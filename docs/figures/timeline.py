#!/usr/bin/env python3
"""Writes docs/figures/timeline.svg: one lock's life on a time axis.

Client A acquires (token 33) with the watchdog's lease of 30 s, renews every
10 s, then pauses (a GC pause, SIGSTOP, a VM migration) for longer than the
lease. The lease runs out on Redis, client B acquires (token 34) and writes;
A wakes, its stale write (33) is refused by the resource, and its watchdog
reports the loss. Run: python3 docs/figures/timeline.py > docs/figures/timeline.svg
(scripts/docs.sh checks the checked-in picture is what this script writes).
"""
from __future__ import annotations

import sys
from xml.sax.saxutils import escape

WIDTH, LEFT, RIGHT = 900, 120, 870
SECONDS = 70  # the axis: 0 .. 70 s
LANES = {"client A": 70, "Redis": 150, "client B": 230, "resource": 310}
HEIGHT = 400


def x(second: float) -> float:
    return LEFT + (RIGHT - LEFT) * second / SECONDS


def text(px: float, py: float, body: str, anchor: str = "middle", size: int = 12,
         colour: str = "#222") -> str:
    return (f'<text x="{px:.1f}" y="{py:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{colour}">{escape(body)}</text>')


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = "#222",
          dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5,4"' if dashed else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
            f'stroke-width="1.5" marker-end="url(#head)"{dash}/>')


def bar(start: float, end: float, lane: str, colour: str, label: str) -> str:
    y = LANES[lane]
    return (f'<rect x="{x(start):.1f}" y="{y - 9}" width="{x(end) - x(start):.1f}" height="18" '
            f'fill="{colour}" rx="3"/>' + text((x(start) + x(end)) / 2, y + 4, label, size=11))


def picture() -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
        '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" '
        'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#222"/></marker></defs>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    for lane, y in LANES.items():
        parts.append(f'<line x1="{LEFT}" y1="{y}" x2="{RIGHT}" y2="{y}" stroke="#bbb"/>')
        parts.append(text(LEFT - 10, y + 4, lane, anchor="end", size=13))
    # The lease on Redis: granted at 0, renewed at 10 and 20, so it ends at 50.
    parts.append(bar(0, 50, "Redis", "#cfe3ff", "A's lease (renewed to now + 30 s)"))
    parts.append(bar(50, 70, "Redis", "#ffe0b3", "B's lease"))
    # A: held, then paused.
    parts.append(bar(0, 25, "client A", "#d7f0d0", "A holds, token 33"))
    parts.append(bar(25, 58, "client A", "#f4c7c3", "A paused (GC, SIGSTOP, VM migration)"))
    parts.append(arrow(x(0), LANES["client A"] + 10, x(0), LANES["Redis"] - 10))
    parts.append(text(x(0) + 4, 112, "acquire: token 33", anchor="start", size=11))
    for renewal in (10, 20):
        parts.append(arrow(x(renewal), LANES["client A"] + 10, x(renewal), LANES["Redis"] - 10,
                           dashed=True))
        parts.append(text(x(renewal) + 4, 125, "renew", anchor="start", size=11))
    # B waits, then acquires when the lease lapses (no release: A is paused).
    parts.append(bar(5, 50, "client B", "#eeeeee", "B waits (sleeps on the channel / PTTL)"))
    parts.append(arrow(x(50), LANES["client B"] - 10, x(50), LANES["Redis"] + 10))
    parts.append(text(x(50) + 4, 200, "lease lapsed: B gets token 34", anchor="start", size=11))
    parts.append(arrow(x(52), LANES["client B"] + 10, x(52), LANES["resource"] - 10))
    parts.append(text(x(52) + 4, 285, "write, token 34: accepted", anchor="start", size=11,
                      colour="#1a7f37"))
    # A wakes and writes with its stale token; the resource refuses it.
    parts.append(arrow(x(59), LANES["client A"] + 10, x(59), LANES["resource"] - 10,
                       colour="#b42318"))
    parts.append(text(x(59) - 4, 330, "A wakes, writes with token 33: refused (34 seen)",
                      anchor="end", size=11, colour="#b42318"))
    parts.append(text(RIGHT, LANES["client A"] - 14,
                      "A's watchdog: hold gone, on_lost called, release returns LOST", anchor="end",
                      size=11, colour="#b42318"))
    # The axis.
    axis_y = HEIGHT - 30
    parts.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{RIGHT}" y2="{axis_y}" stroke="#222"/>')
    for second in range(0, SECONDS + 1, 10):
        parts.append(f'<line x1="{x(second):.1f}" y1="{axis_y}" x2="{x(second):.1f}" '
                     f'y2="{axis_y + 5}" stroke="#222"/>')
        parts.append(text(x(second), axis_y + 18, f"{second} s", size=11))
    parts.append(text(LEFT - 10, axis_y + 4, "time", anchor="end", size=13))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(picture())
