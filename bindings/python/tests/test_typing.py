"""The stubs match the extension, and the package type-checks strictly."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ALLOWLIST = Path(__file__).with_name("stubtest_allowlist.txt")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # Outside the source tree, so the installed package is what gets checked.
    with tempfile.TemporaryDirectory() as elsewhere:
        return subprocess.run(
            [sys.executable, "-m", *args], cwd=elsewhere, capture_output=True, text=True
        )


def test_stubs_match_the_extension() -> None:
    result = _run("mypy.stubtest", "--allowlist", str(ALLOWLIST), "dlock._dlock")
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_type_checks_strictly() -> None:
    result = _run("mypy", "--strict", "-p", "dlock")
    assert result.returncode == 0, result.stdout + result.stderr
