# Packages split as distributions split them:
#   libdlock1     (component runtime) the shared library
#   libdlock-dev  (component dev)     header, .so link, libdlock.a, dlock.pc, CMake package
#   dlock-tools   (component tools)   the dlock command and its man page
# Build them with packaging/build-packages.sh: .deb and .rpm need different
# library directories, so each comes from its own configure.
set(CPACK_PACKAGE_NAME dlock)
set(CPACK_PACKAGE_VENDOR "dlock")
# Who answers for the packages: whoever publishes them sets their own
# (DLOCK_PACKAGE_CONTACT in build-packages.sh's environment); the default names
# the project but no one who answers, and release.sh says so when it is used.
set(DLOCK_PACKAGE_CONTACT "dlock maintainers <maintainers@dlock.dev>" CACHE STRING
  "Maintainer of the .deb/.rpm packages (Name <address>)")
set(CPACK_PACKAGE_CONTACT "${DLOCK_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
# Built by Zig for glibc 2.28 (packaging/build-packages.sh with DLOCK_ZIG_ROOT):
# linked stripped already (the host's strip cannot read another architecture's
# files), and cross-built for CMAKE_SYSTEM_PROCESSOR when that is not the host's.
option(DLOCK_PACKAGE_ZIG "The packages are a Zig build for glibc 2.28" OFF)
if(DLOCK_PACKAGE_ZIG)
  set(CPACK_STRIP_FILES OFF)
endif()
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET dlock_cli)
  list(APPEND CPACK_COMPONENTS_ALL tools)
endif()

# The library directory says which package a build makes (build-packages.sh):
if(CMAKE_INSTALL_LIBDIR MATCHES "^lib/.*-linux-gnu")
  set(CPACK_GENERATOR DEB)  # Debian multiarch layout
elseif(CMAKE_INSTALL_LIBDIR STREQUAL "lib64")
  set(CPACK_GENERATOR RPM)
else()
  # lib: one relocatable tree, bin/dlock finding lib/libdlock.so.1 through
  # its $ORIGIN/../lib rpath wherever the archive is unpacked.
  set(CPACK_GENERATOR TGZ)
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()

set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "Distributed reentrant fenced locks on Redis (shared library)\n\
dlock guards a critical section across processes and machines with a lock\n\
stored in Redis, compatible with Redisson's RLock. Holds are reentrant, kept\n\
alive while held, and carry strictly increasing fencing tokens.")
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "Distributed reentrant fenced locks on Redis (development files)\n\
The C header, the libdlock.so link, the static library libdlock.a, dlock.pc\n\
and the CMake package (find_package(dlock), target dlock::dlock).")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
  "Distributed reentrant fenced locks on Redis (command-line tool)\n\
The dlock command: like flock(1) across machines, with once-per-period jobs\n\
for schedulers such as cron, and lock inspection.")
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)

# .deb
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(CMAKE_CROSSCOMPILING)
  # dpkg-shlibdeps would need the target's libc6 installed here; a Zig build
  # needs nothing but glibc 2.28 (the newest symbol version it references).
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.28)")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
  endif()
  set(CPACK_RPM_PACKAGE_ARCHITECTURE ${CMAKE_SYSTEM_PROCESSOR})
endif()
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libdlock${DLOCK_ABI_VERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# Multi-Arch (same for the libraries: lib/<multiarch> paths only, and the
# changelog's date comes from SOURCE_DATE_EPOCH, so it is the same file on each
# architecture) is added by deb/finish-deb.sh: CMake 3.25's CPack has no field for it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# The ldconfig trigger, as Debian policy asks of a shared library package.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/deb/triggers)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libdlock-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# With a shared hiredis, dlock.pc names it in Requires.private, so pkg-config
# needs hiredis.pc; an embedded (static) hiredis needs nothing.
if(DLOCK_HIREDIS_SHARED)
  set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libhiredis-dev")
endif()
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME dlock-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
# dpkg-shlibdeps resolves libdlock.so.1 from the runtime package being built;
# the dependency on it comes from the component graph above.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
  ${PROJECT_BINARY_DIR}/_CPack_Packages/Linux/DEB/${CPACK_PACKAGE_NAME}-${PROJECT_VERSION}-Linux/runtime${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR})

# .rpm (rpmbuild computes library and pkgconfig(...) dependencies itself)
set(CPACK_RPM_COMPONENT_INSTALL ON)
set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE "MIT")
set(CPACK_RPM_RUNTIME_PACKAGE_NAME libdlock${DLOCK_ABI_VERSION})
set(CPACK_RPM_DEV_PACKAGE_NAME libdlock-devel)
set(CPACK_RPM_TOOLS_PACKAGE_NAME dlock-tools)
# rpmbuild finds no ELF dependency in the -devel package (its .so is a link),
# so it names the library package it belongs with, as Fedora's -devel do.
set(CPACK_RPM_DEV_PACKAGE_REQUIRES "${CPACK_RPM_RUNTIME_PACKAGE_NAME} = ${PROJECT_VERSION}")

# .tar.gz: everything in one tree, dlock-<version>-linux-<arch>/{bin,include,lib,share}
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
if(CPACK_GENERATOR STREQUAL "TGZ")
  set(CPACK_PACKAGE_FILE_NAME dlock-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR})
endif()

include(CPack)
