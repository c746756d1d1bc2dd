"""The doc test: runs the Python, C and shell blocks of README.md and docs/*.md
against a throwaway redis-server, so the documentation cannot rot.

    python3 tests/docs/run_doc_blocks.py --python build/venv/bin/python --build build/test

Python blocks run with --python (a venv where dlock is installed), C blocks are
compiled against include/dlock.h and linked with BUILD/src/libdlock.so, shell
blocks run under bash -e with BUILD/cli (the dlock command) first on PATH, in a
fresh directory each. Every `redis://HOST:6379` in a block (the docs' default
address) is replaced by the throwaway server's URL, which DLOCK_URL also holds.
Blocks marked `<!-- doctest: skip (why) -->` are counted, not run (doc_blocks.py
has the markup). Prints how many ran and were skipped per document; a failing
block is named by document and line, with its output, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from doc_blocks import Block, blocks, documents

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
from redis_server import RedisServer  # noqa: E402  (the project's one launcher)

BLOCK_SECONDS = 60
_DEFAULT_ADDRESS = re.compile(r"redis://[\w.-]+:6379\b")
_C_HEADERS = ("dlock.h", "inttypes.h", "stdint.h", "stdio.h", "stdlib.h", "string.h")


class Runner:
    """Runs blocks against one server, each in its own directory."""

    def __init__(self, python: str, build: Path, url: str) -> None:
        self.python = os.path.abspath(shutil.which(python) or python)  # blocks run elsewhere
        self.library_dir = build / "src"
        self.url = url
        self.env = dict(os.environ, DLOCK_URL=url,
                        PATH=f"{build / 'cli'}{os.pathsep}{os.environ['PATH']}")

    def run(self, block: Block) -> subprocess.CompletedProcess[str]:
        block = self._pointed_at_server(block)
        with tempfile.TemporaryDirectory(prefix="dlock-doctest-") as work:
            run = {"python": self._run_python, "c": self._run_c, "shell": self._run_shell}
            return run[block.language](block, Path(work))

    def _pointed_at_server(self, block: Block) -> Block:
        return replace(block, code=_DEFAULT_ADDRESS.sub(self.url, block.code),
                       setup=_DEFAULT_ADDRESS.sub(self.url, block.setup))

    def _execute(self, command: list[str], work: Path) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run(command, cwd=work, env=self.env, capture_output=True, text=True,
                                  timeout=BLOCK_SECONDS)
        except subprocess.TimeoutExpired as timeout:
            return subprocess.CompletedProcess(command, -1, "", f"timed out after {timeout.timeout} s")

    def _run_python(self, block: Block, work: Path) -> subprocess.CompletedProcess[str]:
        pieces = [[block.setup_line, block.setup]] if block.setup else []
        source = work / "block.json"
        source.write_text(json.dumps([str(block.path), [*pieces, [block.line, block.code]]]))
        return self._execute([self.python, str(Path(__file__).with_name("run_python_block.py")),
                              str(source)], work)

    def _run_c(self, block: Block, work: Path) -> subprocess.CompletedProcess[str]:
        # The setup and the block are main's body, unless the block has a main: then the setup
        # goes at file scope before it. #line points compiler errors into the Markdown.
        includes = "".join(f"#include <{header}>\n" for header in _C_HEADERS)
        setup = f'#line {block.setup_line} "{block.path}"\n{block.setup}' if block.setup else ""
        code = f'{setup}#line {block.line} "{block.path}"\n{block.code}'
        if not re.search(r"\bint\s+main\s*\(", block.code):
            code = f"int main(void) {{\n{code}  return 0;\n}}\n"
        (work / "block.c").write_text(includes + code)
        compiled = self._execute(
            ["cc", "-std=c99", "-Wall", "-Werror", "-Wno-unused-variable",
             "-Wno-unused-but-set-variable", f"-I{ROOT / 'include'}", "block.c", "-o", "block",
             f"-L{self.library_dir}", "-ldlock", f"-Wl,-rpath,{self.library_dir}"], work)
        return compiled if compiled.returncode else self._execute([str(work / "block")], work)

    def _run_shell(self, block: Block, work: Path) -> subprocess.CompletedProcess[str]:
        return self._execute(["bash", "-e", "-o", "pipefail", "-c",
                              block.setup + _shell_commands(block.code)], work)


def _shell_commands(code: str) -> str:
    """A ```console block's `$ ` lines (its other lines are output); other blocks as they are."""
    prompted = [line[2:] for line in code.splitlines() if line.startswith("$ ")]
    return "\n".join(prompted) + "\n" if prompted else code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="a Python with dlock installed")
    parser.add_argument("--build", required=True, type=Path,
                        help="a CMake build directory with src/libdlock.so and cli/dlock")
    arguments = parser.parse_args()
    for needed in (arguments.build / "src" / "libdlock.so", arguments.build / "cli" / "dlock"):
        if not needed.exists():
            parser.error(f"--build {arguments.build}: no {needed} (build the dlock and dlock_cli targets)")
    started = time.monotonic()
    failed = []
    with RedisServer() as redis:
        runner = Runner(arguments.python, arguments.build.resolve(), redis.url)
        for document in documents(ROOT):
            ran = skipped = 0
            for block in blocks(ROOT, document):
                if block.skip:
                    skipped += 1
                    continue
                redis.cli("FLUSHALL")
                outcome = runner.run(block)
                ran += 1
                if outcome.returncode != 0:
                    failed.append(block)
                    print(f"FAILED {block.where} ({block.language} block, exit {outcome.returncode}):\n"
                          f"{outcome.stdout}{outcome.stderr}", file=sys.stderr)
            if ran or skipped:
                print(f"{document}: {ran} ran, {skipped} skipped")
    print(f"doc blocks: {len(failed)} failed ({time.monotonic() - started:.1f} s)"
          + "".join(f"\n  {block.where}" for block in failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
