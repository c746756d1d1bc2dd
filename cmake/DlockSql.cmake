# The SQL client libraries for the postgresql:// and mysql:// backends (issue 24,
# docs/design/backends.md 3): Debian's libpq (libpq-dev) and MariaDB Connector/C
# (libmariadb-dev, which serves MySQL 8 as well), found with pkg-config, as the
# imported targets dlock_libpq and dlock_mariadb. DLOCK_HAVE_POSTGRESQL and
# DLOCK_HAVE_MYSQL say whether each was found and is wanted.
#
# DLOCK_WITH_POSTGRESQL / DLOCK_WITH_MYSQL (cmake/DlockBackendSwitch.cmake):
# AUTO (on when the library is found), ON (fail without it) or OFF. Shared libraries for now: libdlock links
# Debian's libpq5 / libmariadb3 as they are; how the artefacts embed them is an
# open question (docs/design/backends.md 5, risk 2). So the release artefacts
# leave both out (docs/sql.md): scripts/release.sh, packaging/build-packages.sh
# and scripts/wheel-manylinux.sh set DLOCK_WITH_POSTGRESQL=OFF and
# DLOCK_WITH_MYSQL=OFF in the environment, which reaches every build they start
# (the jar's through bindings/java/build.sh too).
include(DlockBackendSwitch)
find_package(PkgConfig QUIET)

# dlock_find_sql_client(<switch> <pkg-config module> <imported target> <Debian package> <scheme>)
# sets DLOCK_HAVE_<switch>.
function(dlock_find_sql_client switch module target package scheme)
  dlock_backend_switch(${switch} "${scheme} backend: AUTO (on when ${package} is installed), ON or OFF")
  set(wanted "${dlock_${switch}_wanted}")
  set(have OFF)
  if(wanted STREQUAL "AUTO" OR wanted)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(dlock_pc_${switch} QUIET IMPORTED_TARGET GLOBAL ${module})
    endif()
    if(dlock_pc_${switch}_FOUND)
      set(have ON)
      add_library(${target} INTERFACE IMPORTED GLOBAL)
      target_link_libraries(${target} INTERFACE PkgConfig::dlock_pc_${switch})
      message(STATUS "dlock: ${module} ${dlock_pc_${switch}_VERSION}: ${scheme} backend on (linked shared)")
    elseif(NOT wanted STREQUAL "AUTO")
      message(FATAL_ERROR "dlock: ${dlock_${switch}_given} but pkg-config finds no ${module}"
        " (Debian's ${package}; scripts/deps.sh all installs it)")
    else()
      message(STATUS "dlock: no ${module} (Debian's ${package}): ${scheme} backend off")
    endif()
  else()
    message(STATUS "dlock: ${scheme} backend off (${dlock_${switch}_given})")
  endif()
  set(DLOCK_HAVE_${switch} ${have} PARENT_SCOPE)
endfunction()

dlock_find_sql_client(POSTGRESQL libpq dlock_libpq libpq-dev postgresql://)
dlock_find_sql_client(MYSQL libmariadb dlock_mariadb libmariadb-dev mysql://)
