#!/usr/bin/env python3
"""Keeps the layers honest: reports every #include that points the wrong way.

Rules (docs/ARCHITECTURE.md):
- cli/ and bindings/ (their tests aside) include only dlock.h, files of their
  own directory, and system or third-party headers; nothing from src/, and no
  hiredis.
- hiredis is included only in src/redis/ (bench/ and tests/ may use it as a
  reference client).
- Inside src/, arrows point one way: c_api -> primitives -> core -> redis, all
  on common/; a primitive never includes another primitive's folder.
- The ZooKeeper C client (zookeeper.h) is included only in
  src/backends/zookeeper/; a backend includes neither primitives/, c_api/ nor
  another backend's folder.
- dlock.h's types stay in c_api/ (and common/, whose errors carry its
  statuses): redis/, core/ and primitives/ never see them, save the one
  constant every name check needs.

Usage: check_layers.py [ROOT]    exits 1 and lists the violations, if any
       check_layers.py --self-test
"""
import pathlib
import re
import sys
import tempfile

SOURCE_SUFFIXES = {".c", ".cc", ".cpp", ".h", ".hpp", ".i"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
SKIPPED_TOP = {"build", ".git", "bench", "tests"}
CONSUMERS = ("cli", "bindings")
# What each layer of src/ must not include (by the include's first folder).
FORBIDDEN_IN_SRC = {
    "common": {"redis", "core", "primitives", "c_api", "backends"},
    "backends": {"primitives", "c_api"},
    "redis": {"core", "primitives", "c_api"},
    "core": {"primitives", "c_api"},
    "primitives": {"c_api"},
}
# Primitives that are another primitive with something added, and may include it:
# the fair lock is the reentrant lock's hash, scripts and acquire steps plus a queue;
# an election's leadership is a lock hold plus the leader's record.
BUILT_ON = {"fair_lock": {"lock"}, "election": {"lock"}}
# The layers of src/ that may include dlock.h, and the one file elsewhere that
# does: DLOCK_NAME_MAX is the limit every primitive's name check applies.
DLOCK_H_LAYERS = {"c_api", "common"}
DLOCK_H_ALSO = {"src/core/key_names.cpp"}


def is_test_path(relative):
    parts = relative.parts
    return "tests" in parts or parts[:4] == ("bindings", "java", "src", "test")


def sources(root):
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if relative.parts[0] in SKIPPED_TOP or path.suffix not in SOURCE_SUFFIXES:
            continue
        if path.is_file():
            yield relative


def includes(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    for match in INCLUDE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield line, match.group(1), match.group(2).strip()


def consumer_violation(root, relative, quote, header):
    if "hiredis" in header:
        return "hiredis belongs to src/redis/ alone"
    if is_zookeeper_client(header):
        return "zookeeper.h belongs to src/backends/zookeeper/ alone"
    if header in ("dlock.h", "include/dlock.h"):
        return None
    if (root / "src" / header).is_file() or header.startswith("src/"):
        return "includes the core's " + header + ": use dlock.h"
    if quote == '"':
        own = root / relative.parent / header
        if "/" in header or not own.is_file():
            return "includes " + header + ", neither dlock.h nor a file of " + str(relative.parent)
    return None


def is_zookeeper_client(header):
    return header in ("zookeeper.h", "zookeeper/zookeeper.h")


def src_violation(relative, header):
    layer = relative.parts[1] if len(relative.parts) > 2 else ""
    target = header.split("/")
    if "hiredis" in header and layer != "redis":
        return "hiredis belongs to src/redis/ alone"
    if is_zookeeper_client(header) and relative.parts[1:3] != ("backends", "zookeeper"):
        return "zookeeper.h belongs to src/backends/zookeeper/ alone"
    if layer == "backends" and target[0] == "backends" and len(target) > 2 and len(relative.parts) > 3:
        if target[1] != relative.parts[2]:
            return "backend " + relative.parts[2] + " includes backend " + target[1]
    if header == "dlock.h" and layer not in DLOCK_H_LAYERS and relative.as_posix() not in DLOCK_H_ALSO:
        return "dlock.h's types belong to src/c_api/"
    if target[0] in FORBIDDEN_IN_SRC.get(layer, set()):
        return "src/" + layer + "/ is below " + target[0] + "/"
    if layer == "primitives" and target[0] == "primitives" and len(target) > 2:
        own = relative.parts[2]
        if target[1] != own and target[1] not in BUILT_ON.get(own, set()):
            return "primitive " + own + " includes primitive " + target[1]
    return None


def violations(root):
    root = pathlib.Path(root)
    found = []
    for relative in sources(root):
        top = relative.parts[0]
        for line, quote, header in includes(root / relative):
            if top in CONSUMERS and not is_test_path(relative):
                problem = consumer_violation(root, relative, quote, header)
            elif top == "src":
                problem = src_violation(relative, header)
            elif "hiredis" in header:
                problem = "hiredis belongs to src/redis/ alone"
            elif is_zookeeper_client(header) and top not in SKIPPED_TOP:
                problem = "zookeeper.h belongs to src/backends/zookeeper/ alone"
            else:
                problem = None
            if problem:
                closing = '"' if quote == '"' else ">"
                found.append(f"{relative}:{line}: #include {quote}{header}{closing}: {problem}")
    return found


def self_test():
    """The checker must flag each kind of violation and pass a clean tree."""
    clean = {
        "src/common/error.hpp": "#include <stdexcept>\n#include \"dlock.h\"\n",
        "src/redis/reply.hpp": "#include <hiredis/hiredis.h>\n#include \"common/error.hpp\"\n",
        "src/core/holds.hpp": "#include \"redis/reply.hpp\"\n",
        "src/primitives/lock/lock.hpp": "#include \"core/holds.hpp\"\n#include \"primitives/lock/keys.hpp\"\n",
        "src/primitives/lock/keys.hpp": "",
        "src/c_api/lock.cpp": "#include \"primitives/lock/lock.hpp\"\n#include \"dlock.h\"\n",
        "cli/main.cpp": "#include <cstdio>\n#include \"dlock.h\"\n#include \"own.hpp\"\n",
        "cli/own.hpp": "",
        "cli/tests/helper.cpp": "#include \"redis/reply.hpp\"\n",
        "bench/raw.cpp": "#include <hiredis/hiredis.h>\n",
        "src/backends/zookeeper/zk_call.hpp": "#include <zookeeper/zookeeper.h>\n#include \"common/error.hpp\"\n",
        "src/backends/zookeeper/zk_mutex.hpp": "#include \"backends/zookeeper/zk_call.hpp\"\n",
        "tests/support/raw.cpp": "#include <hiredis/hiredis.h>\n",
    }
    bad = {
        "cli/bad_src.cpp": '#include "redis/reply.hpp"\n',
        "cli/bad_angle.cpp": "#include <core/holds.hpp>\n",
        "cli/bad_other_dir.cpp": '#include "../bindings/x.hpp"\n',
        "cli/bad_hiredis.cpp": "#include <hiredis/hiredis.h>\n",
        "bindings/java/bad.i": '#include "common/error.hpp"\n',
        "demo/bad_hiredis.c": "#include <hiredis/hiredis.h>\n",
        "src/core/bad_hiredis.cpp": "#include <hiredis/hiredis.h>\n",
        "src/redis/bad_up.cpp": '#include "core/holds.hpp"\n',
        "src/core/bad_up.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/common/bad_up.hpp": '#include "redis/reply.hpp"\n',
        "src/primitives/lock/bad_up.cpp": '#include "c_api/lock.cpp"\n',
        "src/primitives/semaphore/bad_sibling.cpp": '#include "primitives/lock/keys.hpp"\n',
        "src/core/bad_c_types.hpp": '#include "dlock.h"\n',
        "src/core/bad_zookeeper.cpp": "#include <zookeeper/zookeeper.h>\n",
        "cli/bad_zookeeper.cpp": "#include <zookeeper/zookeeper.h>\n",
        "src/backends/zookeeper/bad_up.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/backends/zookeeper/bad_sibling.cpp": '#include "backends/redis/net/reply.hpp"\n',
        "src/common/bad_backend.hpp": '#include "backends/zookeeper/zk_call.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        for name, text in clean.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        if violations(root):
            print("self-test: a clean tree was flagged:", *violations(root), sep="\n  ")
            return 1
        for name, text in bad.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        flagged = {line.split(":", 1)[0] for line in violations(root)}
        missed = sorted(set(bad) - flagged)
        wrongly = sorted(flagged - set(bad))
        if missed or wrongly:
            print("self-test: missed", missed, "flagged wrongly", wrongly)
            return 1
    print(f"self-test: all {len(bad)} violations flagged, the clean tree passes")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
    found = violations(root)
    for problem in found:
        print(problem)
    if found:
        print(f"{len(found)} include(s) cross the layers (see docs/ARCHITECTURE.md)")
        return 1
    print("layers: every include points the right way")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
