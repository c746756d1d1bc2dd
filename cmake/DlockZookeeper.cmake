# The ZooKeeper C client for the zookeeper:// backend (issue 23,
# docs/design/backends.md 2.6-2.7), as the imported target dlock_zookeeper: the
# static, position-independent, multi-threaded archives that
# scripts/deps-zookeeper.sh builds into DLOCK_DEPS_PREFIX/zookeeper, with the
# THREADED definition (the sync API's declarations), their hashtable archive and
# Threads. DLOCK_HAVE_ZOOKEEPER says whether it was found and is wanted.
#
# DLOCK_WITH_ZOOKEEPER (cmake/DlockBackendSwitch.cmake): AUTO (on when that
# client is in the prefix), ON (fail without it) or OFF; scripts/release.sh sets
# ON in the environment: no artefact is made without the backend. Debian 12's
# libzookeeper-mt-dev is not looked for: every artefact embeds the pinned
# client, as it embeds hiredis.
include(DlockBackendSwitch)
dlock_backend_switch(ZOOKEEPER
  "ZooKeeper backend: AUTO (on when scripts/deps-zookeeper.sh's client is in DLOCK_DEPS_PREFIX), ON or OFF")

set(DLOCK_HAVE_ZOOKEEPER OFF)
set(dlock_zookeeper_dir "${DLOCK_DEPS_PREFIX}/zookeeper")
set(dlock_zookeeper_archive "${dlock_zookeeper_dir}/lib/libzookeeper_mt.a")
set(dlock_zookeeper_hashtable "${dlock_zookeeper_dir}/lib/libhashtable.a")
set(dlock_zookeeper_header "${dlock_zookeeper_dir}/include/zookeeper/zookeeper.h")
set(dlock_zookeeper_hint "scripts/deps-zookeeper.sh ${DLOCK_DEPS_PREFIX} builds it; scripts/deps.sh all runs it")

if(dlock_ZOOKEEPER_wanted STREQUAL "AUTO" OR dlock_ZOOKEEPER_wanted)
  if(EXISTS "${dlock_zookeeper_archive}" AND EXISTS "${dlock_zookeeper_hashtable}"
     AND EXISTS "${dlock_zookeeper_header}")
    set(DLOCK_HAVE_ZOOKEEPER ON)
  elseif(NOT dlock_ZOOKEEPER_wanted STREQUAL "AUTO")
    message(FATAL_ERROR "dlock: ${dlock_ZOOKEEPER_given} but there is no ZooKeeper C client in"
      " ${dlock_zookeeper_dir}: ${dlock_zookeeper_hint}")
  endif()
endif()

if(DLOCK_HAVE_ZOOKEEPER)
  find_package(Threads REQUIRED)
  file(STRINGS "${dlock_zookeeper_dir}/include/zookeeper/zookeeper_version.h" dlock_zookeeper_version
       REGEX "^#define ZOO_VERSION \"[0-9.]+\"$")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" dlock_zookeeper_version "${dlock_zookeeper_version}")
  add_library(dlock_zookeeper_hashtable STATIC IMPORTED)
  set_target_properties(dlock_zookeeper_hashtable PROPERTIES
    IMPORTED_LOCATION "${dlock_zookeeper_hashtable}"
    INTERFACE_LINK_LIBRARIES m)
  add_library(dlock_zookeeper STATIC IMPORTED)
  set_target_properties(dlock_zookeeper PROPERTIES
    IMPORTED_LOCATION "${dlock_zookeeper_archive}"
    INTERFACE_INCLUDE_DIRECTORIES "${dlock_zookeeper_dir}/include"
    INTERFACE_COMPILE_DEFINITIONS THREADED
    INTERFACE_LINK_LIBRARIES "dlock_zookeeper_hashtable;Threads::Threads;rt")
  message(STATUS "dlock: ZooKeeper C client ${dlock_zookeeper_version} (${dlock_zookeeper_dir}, static,"
    " multi-threaded): ZooKeeper backend (zookeeper://) on")
elseif(dlock_ZOOKEEPER_wanted STREQUAL "AUTO")
  message(STATUS "dlock: no ZooKeeper C client in ${dlock_zookeeper_dir}: ZooKeeper backend (zookeeper://) off"
    " (${dlock_zookeeper_hint})")
else()
  message(STATUS "dlock: ZooKeeper backend (zookeeper://) off (${dlock_ZOOKEEPER_given})")
endif()
