"""Runs one Python doc block: python run_python_block.py FILE.json.

FILE.json holds [document, [[first line, code], ...]]: the pieces (the setup,
then the block) run in one namespace, compiled under the document's name and
lines so a traceback points into the Markdown. Top-level `await` is allowed,
as in `python -m asyncio`: a block showing a coroutine's lines runs them in an
event loop. asyncio is imported only then: a gevent block patches the standard
library first, as its docs ask.
"""

import ast
import inspect
import json
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        document, pieces = json.load(file)
    namespace = {"__name__": "__main__"}
    for first_line, code in pieces:
        compiled = compile("\n" * (first_line - 1) + code, document, "exec",
                           flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        outcome = eval(compiled, namespace)  # a coroutine when the code awaits
        if inspect.iscoroutine(outcome):
            import asyncio

            asyncio.run(outcome)


if __name__ == "__main__":
    main()
