#!/usr/bin/env python3
"""Keeps the layers honest: reports every #include that points the wrong way.

Rules (docs/ARCHITECTURE.md, docs/design/backends.md section 1.4):
- cli/ and bindings/ (their tests aside) include only dlock.h, files of their
  own directory, and system or third-party headers; nothing from src/, and no
  server's client library.
- Each server's client library is included in its backend alone: hiredis in
  src/backends/redis/net/, zookeeper.h in src/backends/zookeeper/, libpq-fe.h
  and mysql.h in their src/backends/sql/ connection files (bench/ and tests/
  may use hiredis as a reference client).
- Inside src/, arrows point one way: c_api -> primitives -> core ->
  backends/redis/net, all on common/; a primitive never includes another
  primitive's folder, a backend never includes another backend's. Until the
  seam's step 6 (docs/design/backends.md, 1.5) the layers above still reach
  into the Redis backend; from step 4 the Redis backend outside net/ (its
  keeper, lock ops and waits, implementing core's HoldKeeper, LockOps,
  LockWait and SemaphoreOps) includes core/, and so does the ZooKeeper
  backend (its ZkLockOps, ZkLockWait and ZkKeeper), as every backend will
  once the rule flips to backends -> core only. The SQL backend does not yet,
  and Redis's net/ never does. Core's reach into the backends only shrinks: the core
  files that still include a backend are listed, and no other may start.
- dlock.h's types stay in c_api/ (and common/, whose errors carry its
  statuses): backends/, core/ and primitives/ never see them, save the one
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
    "common": {"backends", "core", "primitives", "c_api"},
    "backends": {"core", "primitives", "c_api"},
    "core": {"primitives", "c_api"},
    "primitives": {"c_api"},
}
# The backends the layers above backends/ may include: Redis until the seam's
# step 6 is done (primitives still reach its resources), ZooKeeper for c_api to
# open a client on it, and SQL likewise.
BACKENDS_REACHED_FROM_ABOVE = {"redis", "zookeeper", "sql"}
# The backend folders that may include core/ before the seam's step 6, and the
# one inside them that stays below core/ (the connection layer core uses).
CORE_REACHED_FROM = ("src/backends/redis/", "src/backends/zookeeper/", "src/backends/sql/")
CORE_NEVER_FROM = ("src/backends/redis/net/",)
# The core files that still include the Redis backend, until the seam's step 6
# empties the list; a core file not on it (the seam's interfaces among them)
# never includes a backend.
CORE_REACHING_BACKENDS = {
    "src/core/client.hpp",
    "src/core/client_core.hpp",
    "src/core/count_key.hpp",
}
# Each server's client library (by its header's file name, or "hiredis" for any
# of hiredis's headers) and the only places that include it.
CLIENT_LIBRARY_HOMES = {
    "hiredis": ("src/backends/redis/net/",),
    "zookeeper.h": ("src/backends/zookeeper/",),
    "libpq-fe.h": ("src/backends/sql/pg_connection.cpp",),
    "mysql.h": ("src/backends/sql/mysql_connection.cpp",),
}
# Primitives that are another primitive with something added, and may include it:
# an election's leadership is a lock hold plus the leader's record; a permit of a
# backend whose permits are lock holds (ZooKeeper's leases) is one plus a count.
BUILT_ON = {"election": {"lock"}, "permit_semaphore": {"lock"}}
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


def client_library_violation(relative, header):
    library = "hiredis" if "hiredis" in header else header.rsplit("/", 1)[-1]
    homes = CLIENT_LIBRARY_HOMES.get(library)
    if homes and not relative.as_posix().startswith(homes):
        return library + " belongs to " + " and ".join(homes) + " alone"
    return None


def consumer_violation(root, relative, quote, header):
    if header in ("dlock.h", "include/dlock.h"):
        return None
    if (root / "src" / header).is_file() or header.startswith("src/"):
        return "includes the core's " + header + ": use dlock.h"
    if quote == '"':
        own = root / relative.parent / header
        if "/" in header or not own.is_file():
            return "includes " + header + ", neither dlock.h nor a file of " + str(relative.parent)
    return None


def may_include_core(relative):
    path = relative.as_posix()
    return path.startswith(CORE_REACHED_FROM) and not path.startswith(CORE_NEVER_FROM)


def src_violation(relative, header):
    layer = relative.parts[1] if len(relative.parts) > 2 else ""
    target = header.split("/")
    if header == "dlock.h" and layer not in DLOCK_H_LAYERS and relative.as_posix() not in DLOCK_H_ALSO:
        return "dlock.h's types belong to src/c_api/"
    forbidden = FORBIDDEN_IN_SRC.get(layer, set())
    if may_include_core(relative):
        forbidden = forbidden - {"core"}
    if target[0] in forbidden:
        return "src/" + layer + "/ is below " + target[0] + "/"
    if layer == "core" and target[0] == "backends" and relative.as_posix() not in CORE_REACHING_BACKENDS:
        return "core/ only stops including backends: this file is not among those that still do"
    if target[0] == "backends" and len(target) > 2:
        if layer == "backends" and target[1] != relative.parts[2]:
            return "backend " + relative.parts[2] + " includes backend " + target[1]
        if layer != "backends" and target[1] not in BACKENDS_REACHED_FROM_ABOVE:
            return "src/" + layer + "/ reaches into backend " + target[1]
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
            problem = client_library_violation(relative, header)
            if not problem and top in CONSUMERS and not is_test_path(relative):
                problem = consumer_violation(root, relative, quote, header)
            elif not problem and top == "src":
                problem = src_violation(relative, header)
            if problem:
                closing = '"' if quote == '"' else ">"
                found.append(f"{relative}:{line}: #include {quote}{header}{closing}: {problem}")
    return found


def self_test():
    """The checker must flag each kind of violation and pass a clean tree."""
    clean = {
        "src/common/error.hpp": "#include <stdexcept>\n#include \"dlock.h\"\n",
        "src/backends/redis/net/reply.hpp": "#include <hiredis/hiredis.h>\n#include \"common/error.hpp\"\n",
        "src/backends/redis/keeper.cpp": "#include \"core/holds.hpp\"\n#include \"backends/redis/net/reply.hpp\"\n",
        "src/backends/zookeeper/zk_session.cpp": "#include <zookeeper/zookeeper.h>\n",
        "src/backends/zookeeper/zk_keeper.hpp": "#include \"core/hold_keeper.hpp\"\n",
        "src/backends/sql/pg_connection.cpp": "#include <libpq-fe.h>\n",
        "src/backends/sql/mysql_connection.cpp": "#include <mysql/mysql.h>\n",
        "src/core/client_core.hpp": "#include \"backends/redis/net/reply.hpp\"\n",
        "src/core/holds.hpp": "#include <chrono>\n",
        "src/core/lock_ops.hpp": "#include \"core/waiter.hpp\"\n",
        "src/backends/redis/redis_lock_wait.hpp": "#include \"core/lock_ops.hpp\"\n",
        "src/primitives/lock/lock.hpp": "#include \"core/holds.hpp\"\n#include \"primitives/lock/keys.hpp\"\n",
        "src/primitives/lock/keys.hpp": "",
        "src/c_api/lock.cpp": "#include \"primitives/lock/lock.hpp\"\n#include \"dlock.h\"\n",
        "cli/main.cpp": "#include <cstdio>\n#include \"dlock.h\"\n#include \"own.hpp\"\n",
        "cli/own.hpp": "",
        "cli/tests/helper.cpp": "#include \"backends/redis/net/reply.hpp\"\n",
        "bench/raw.cpp": "#include <hiredis/hiredis.h>\n",
        "tests/support/raw.cpp": "#include <hiredis/hiredis.h>\n",
    }
    bad = {
        "cli/bad_src.cpp": '#include "backends/redis/net/reply.hpp"\n',
        "cli/bad_angle.cpp": "#include <core/holds.hpp>\n",
        "cli/bad_other_dir.cpp": '#include "../bindings/x.hpp"\n',
        "cli/bad_hiredis.cpp": "#include <hiredis/hiredis.h>\n",
        "bindings/java/bad.i": '#include "common/error.hpp"\n',
        "demo/bad_hiredis.c": "#include <hiredis/hiredis.h>\n",
        "src/core/bad_hiredis.cpp": "#include <hiredis/hiredis.h>\n",
        "src/backends/redis/net/bad_up.cpp": '#include "core/holds.hpp"\n',
        "src/backends/redis/bad_hiredis.cpp": "#include <hiredis/hiredis.h>\n",
        "src/backends/sql/bad_libpq.cpp": "#include <libpq-fe.h>\n",
        "src/backends/sql/bad_primitive.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/backends/sql/bad_other_backend.cpp": '#include "backends/zookeeper/zk_session.hpp"\n',
        "src/backends/zookeeper/bad_primitive.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/backends/redis/bad_primitive.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/backends/zookeeper/bad_other_backend.cpp": '#include "backends/redis/net/reply.hpp"\n',
        "src/c_api/bad_zookeeper.cpp": "#include <zookeeper/zookeeper.h>\n",
        "src/core/bad_backend.cpp": '#include "backends/zookeeper/zk_session.hpp"\n',
        "src/core/bad_sql_backend.cpp": '#include "backends/sql/sql_pool.hpp"\n',
        "src/core/bad_new_redis_reach.hpp": '#include "backends/redis/net/reply.hpp"\n',
        "src/core/bad_up.cpp": '#include "primitives/lock/lock.hpp"\n',
        "src/common/bad_up.hpp": '#include "backends/redis/net/reply.hpp"\n',
        "src/primitives/lock/bad_up.cpp": '#include "c_api/lock.cpp"\n',
        "src/primitives/semaphore/bad_sibling.cpp": '#include "primitives/lock/keys.hpp"\n',
        "src/core/bad_c_types.hpp": '#include "dlock.h"\n',
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
