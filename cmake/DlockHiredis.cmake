# hiredis for the core, as two imported targets: dlock_hiredis (libdlock.so and
# the tests link it) and dlock_hiredis_static (the self-contained artefacts, the
# Python extension and the JNI library, embed it). DLOCK_HAVE_TLS is set, and
# defined for whatever links them, when hiredis_ssl came with it.
#
# First choice: hiredis >= 1.0 with hiredis_ssl, as scripts/deps-hiredis.sh
# builds it (static archives, -fPIC) into DLOCK_DEPS_PREFIX. Every artefact then
# embeds hiredis, and only OpenSSL stays a shared library. Otherwise Debian's
# hiredis 0.14 (hiredis.pc only, no TLS: rediss:// is reported unsupported).
set(dlock_default_deps_prefix "$ENV{DLOCK_DEPS_PREFIX}")
if(NOT dlock_default_deps_prefix)
  set(dlock_default_deps_prefix /opt/dlock-deps)
endif()
set(DLOCK_DEPS_PREFIX "${dlock_default_deps_prefix}" CACHE PATH
  "Prefix of what scripts/deps-hiredis.sh and scripts/deps-zookeeper.sh build")
option(DLOCK_WITH_TLS "Use hiredis_ssl for rediss:// when it is found" ON)
# scripts/release.sh sets DLOCK_REQUIRE_TLS=1 in the environment: an artefact
# without rediss:// is refused at configure time, never shipped.
option(DLOCK_REQUIRE_TLS "Fail when hiredis_ssl is not found" OFF)

add_library(dlock_hiredis INTERFACE IMPORTED)
add_library(dlock_hiredis_static INTERFACE IMPORTED)
set(DLOCK_HAVE_TLS OFF)
# Whether libdlock.so needs hiredis's shared library (and dlock.pc hiredis.pc).
set(DLOCK_HIREDIS_SHARED ON)

find_package(hiredis 1.0 CONFIG QUIET HINTS "${DLOCK_DEPS_PREFIX}")
if(TARGET hiredis::hiredis)
  if(DLOCK_WITH_TLS)
    find_package(hiredis_ssl CONFIG QUIET HINTS "${DLOCK_DEPS_PREFIX}")
  endif()
  if(TARGET hiredis::hiredis_ssl)
    set(DLOCK_HAVE_TLS ON)
    # hiredis_ssl calls into hiredis, so it comes first on the link line; the
    # core calls OpenSSL itself too (certificate checks, error reasons).
    find_package(OpenSSL REQUIRED)
    target_link_libraries(dlock_hiredis INTERFACE hiredis::hiredis_ssl hiredis::hiredis OpenSSL::SSL)
    target_compile_definitions(dlock_hiredis INTERFACE DLOCK_HAVE_TLS)
  else()
    target_link_libraries(dlock_hiredis INTERFACE hiredis::hiredis)
  endif()
  # The 1.x package's archives are what dlock_hiredis already names (or its
  # shared library, when a system hiredis 1.x was found).
  target_link_libraries(dlock_hiredis_static INTERFACE dlock_hiredis)
  get_target_property(dlock_hiredis_type hiredis::hiredis TYPE)
  if(dlock_hiredis_type STREQUAL "STATIC_LIBRARY")
    set(DLOCK_HIREDIS_SHARED OFF)
  endif()
  set(dlock_hiredis_found "hiredis ${hiredis_VERSION} (${hiredis_DIR}, ${dlock_hiredis_type})")
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis>=0.14)
  target_link_libraries(dlock_hiredis INTERFACE PkgConfig::HIREDIS)
  # Self-contained artefacts link hiredis statically when its archive is
  # available (Debian's is built with -fPIC).
  find_library(DLOCK_HIREDIS_ARCHIVE NAMES libhiredis.a libhiredis_static.a
    HINTS ${HIREDIS_LIBRARY_DIRS})
  if(DLOCK_HIREDIS_ARCHIVE)
    target_link_libraries(dlock_hiredis_static INTERFACE "${DLOCK_HIREDIS_ARCHIVE}")
  else()
    target_link_libraries(dlock_hiredis_static INTERFACE dlock_hiredis)
  endif()
  set(dlock_hiredis_found "hiredis ${HIREDIS_VERSION} (pkg-config)")
endif()

if((DLOCK_REQUIRE_TLS OR "$ENV{DLOCK_REQUIRE_TLS}") AND NOT DLOCK_HAVE_TLS)
  message(FATAL_ERROR "dlock: TLS is required (DLOCK_REQUIRE_TLS) but ${dlock_hiredis_found} has no"
    " hiredis_ssl: run scripts/deps-hiredis.sh to build hiredis with TLS into ${DLOCK_DEPS_PREFIX}")
endif()
if(DLOCK_HAVE_TLS)
  message(STATUS "dlock: ${dlock_hiredis_found} with hiredis_ssl: TLS (rediss://) on")
else()
  message(STATUS "dlock: ${dlock_hiredis_found} without hiredis_ssl: TLS (rediss://) off"
    " (scripts/deps-hiredis.sh builds a hiredis with TLS into ${DLOCK_DEPS_PREFIX})")
endif()
