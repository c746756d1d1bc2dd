"""The extension is self-contained: it exports its init function only and needs no
libdlock.so or libhiredis.so at run time."""

from __future__ import annotations

import subprocess

from dlock import _dlock


def test_exports_only_the_init_function() -> None:
    symbols = subprocess.run(
        ["nm", "-D", "--defined-only", _dlock.__file__], capture_output=True, text=True, check=True
    ).stdout.split()
    exported = symbols[2::3]
    assert exported == ["PyInit__dlock"]


def test_needs_no_dlock_or_hiredis_library() -> None:
    dynamic = subprocess.run(
        ["readelf", "-d", _dlock.__file__], capture_output=True, text=True, check=True
    ).stdout
    needed = [line for line in dynamic.splitlines() if "(NEEDED)" in line]
    assert needed and not any("dlock" in line or "hiredis" in line for line in needed)
