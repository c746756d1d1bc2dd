# hiredis >= 1.0 ships a CMake package with targets; Debian's 0.14 only hiredis.pc.
# Either way the result is the imported target dlock_hiredis.
find_package(hiredis 1.0 CONFIG QUIET)
if(TARGET hiredis::hiredis)
  add_library(dlock_hiredis INTERFACE IMPORTED)
  target_link_libraries(dlock_hiredis INTERFACE hiredis::hiredis)
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis>=0.14)
  add_library(dlock_hiredis INTERFACE IMPORTED)
  target_link_libraries(dlock_hiredis INTERFACE PkgConfig::HIREDIS)
endif()

# Self-contained artefacts (the Python extension, the JNI library) link hiredis
# statically when its archive is available (Debian's is built with -fPIC).
find_library(DLOCK_HIREDIS_ARCHIVE NAMES libhiredis.a libhiredis_static.a)
add_library(dlock_hiredis_static INTERFACE IMPORTED)
if(DLOCK_HIREDIS_ARCHIVE)
  target_link_libraries(dlock_hiredis_static INTERFACE "${DLOCK_HIREDIS_ARCHIVE}")
else()
  target_link_libraries(dlock_hiredis_static INTERFACE dlock_hiredis)
endif()
