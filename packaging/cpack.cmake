# Packages split as distributions split them:
#   libdlock1     (component runtime) the shared library
#   libdlock-dev  (component dev)     header, .so link, dlock.pc, CMake package
#   dlock-tools   (component tools)   the dlock command and its man page
# Build them with packaging/build-packages.sh: .deb and .rpm need different
# library directories, so each comes from its own configure.
set(CPACK_PACKAGE_NAME dlock)
set(CPACK_PACKAGE_VENDOR "dlock")
set(CPACK_PACKAGE_CONTACT "dlock maintainers <maintainers@dlock.dev>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET dlock_cli)
  list(APPEND CPACK_COMPONENTS_ALL tools)
endif()

if(CMAKE_INSTALL_LIBDIR MATCHES "^lib/.*-linux-gnu")
  set(CPACK_GENERATOR DEB TGZ)  # Debian multiarch layout
else()
  set(CPACK_GENERATOR RPM TGZ)
endif()

set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "Distributed reentrant fenced locks on Redis (shared library)\n\
dlock guards a critical section across processes and machines with a lock\n\
stored in Redis, compatible with Redisson's RLock. Holds are reentrant, kept\n\
alive while held, and carry strictly increasing fencing tokens.")
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "Distributed reentrant fenced locks on Redis (development files)\n\
The C header, the libdlock.so link, dlock.pc and the CMake package\n\
(find_package(dlock), target dlock::dlock).")
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
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libdlock${DLOCK_ABI_VERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
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
set(CPACK_RPM_PACKAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_RPM_RUNTIME_PACKAGE_NAME libdlock${DLOCK_ABI_VERSION})
set(CPACK_RPM_DEV_PACKAGE_NAME libdlock-devel)
set(CPACK_RPM_TOOLS_PACKAGE_NAME dlock-tools)
# rpmbuild finds no ELF dependency in the -devel package (its .so is a link),
# so it names the library package it belongs with, as Fedora's -devel do.
set(CPACK_RPM_DEV_PACKAGE_REQUIRES "${CPACK_RPM_RUNTIME_PACKAGE_NAME} = ${PROJECT_VERSION}")

# .tar.gz: one archive per package as well
set(CPACK_ARCHIVE_COMPONENT_INSTALL ON)
set(CPACK_ARCHIVE_RUNTIME_FILE_NAME libdlock${DLOCK_ABI_VERSION}-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_ARCHIVE_DEV_FILE_NAME libdlock-dev-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_ARCHIVE_TOOLS_FILE_NAME dlock-tools-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})

include(CPack)
