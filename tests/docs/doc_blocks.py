"""The runnable code blocks of the project's Markdown: README.md and docs/*.md.

A fenced block is runnable when its info string is one of LANGUAGES. An HTML
comment just before its fence (blank lines between allowed) tells the doc test
what to do with it, and is invisible once rendered:

    <!-- doctest: skip (why it cannot run on its own) -->
    <!-- doctest: setup
    code in the block's language, run just before it (stubs, a client)
    -->

README.md's quick start (its blocks before the first `## ` heading) and its
`## Install` section are machine setup, maintained with the release scripts:
they are skipped without markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

# Info string -> the runner's language.
LANGUAGES = {"python": "python", "c": "c", "sh": "shell", "bash": "shell", "console": "shell"}

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<info>[\w+-]*)")
_HEADING = re.compile(r"^##\s+(?P<title>.*?)\s*$")
_README_SETUP = "README's quick start or install steps (they set up the machine)"
_DIRECTIVE = re.compile(r"<!--\s*doctest:\s*(?P<verb>skip|setup)\b(?P<rest>.*?)-->", re.DOTALL)


@dataclass(frozen=True)
class Block:
    path: Path       # relative to the repository
    line: int        # of the block's first code line, 1-based
    language: str    # a value of LANGUAGES
    code: str
    setup: str = ""
    setup_line: int = 0
    skip: str = ""   # the reason given, when the block is not run

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def documents(root: Path) -> list[Path]:
    """README.md and docs/*.md, relative to root."""
    return [Path("README.md"), *sorted(p.relative_to(root) for p in (root / "docs").glob("*.md"))]


def blocks(root: Path, path: Path) -> list[Block]:
    """The runnable blocks of one document, in order."""
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    found = []
    section = None  # the current `## ` heading's title
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            heading = _HEADING.match(lines[index])
            section = heading["title"] if heading else section
            index += 1
            continue
        end = _closing_fence(lines, index, opening)
        language = LANGUAGES.get(opening["info"].lower())
        if language:
            indent = len(opening["indent"])
            code = "\n".join(line[indent:] for line in lines[index + 1:end]) + "\n"
            block = _with_directive(lines, index, Block(path, index + 2, language, code))
            if path == Path("README.md") and section in (None, "Install"):
                block = replace(block, skip=_README_SETUP)
            found.append(block)
        index = end + 1
    return found


def _closing_fence(lines: list[str], opening_index: int, opening: re.Match[str]) -> int:
    fence = opening["fence"]
    for index in range(opening_index + 1, len(lines)):
        if lines[index].strip().startswith(fence) and not lines[index].strip()[len(fence):].strip():
            return index
    raise ValueError(f"line {opening_index + 1}: a {fence} fence that is never closed")


def _with_directive(lines: list[str], fence_index: int, block: Block) -> Block:
    """The block with what the comment before its fence says, if there is one."""
    index = fence_index - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index < 0 or not lines[index].rstrip().endswith("-->"):
        return block
    start = index
    while start > 0 and "<!--" not in lines[start]:
        start -= 1
    directive = _DIRECTIVE.search("\n".join(lines[start:index + 1]))
    if not directive:
        return block
    if directive["verb"] == "skip":
        reason = directive["rest"].strip().strip("()").strip()
        if not reason:
            raise ValueError(f"{block.path}:{start + 1}: `doctest: skip` needs a reason in ()")
        return replace(block, skip=reason)
    return replace(block, setup="\n".join(lines[start + 1:index]) + "\n", setup_line=start + 2)
