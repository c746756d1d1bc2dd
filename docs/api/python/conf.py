"""Sphinx configuration of the Python API reference (built by scripts/docs.sh).

autodoc imports the installed `dlock` package, so the reference is the
docstrings of the code that ships, native extension included.
"""
import dlock

project = "dlock"
author = "The dlock authors"
copyright = "2026, The dlock authors"
release = dlock.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
# Python's own objects (threading.RLock, asyncio) are named in prose, not linked:
# the build must not need the network.
nitpicky = False
html_theme = "alabaster"
html_static_path: list[str] = []
exclude_patterns = ["_build"]
