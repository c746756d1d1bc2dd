# libdlock.a for C programs that link statically: the core's objects and, when
# hiredis is embedded (scripts/deps-hiredis.sh's archives), hiredis and
# hiredis_ssl merged into the one archive, and the ZooKeeper C client when the
# build has it, so a static consumer needs only
# what `pkg-config --static --libs dlock` adds (OpenSSL, libstdc++, pthread).
# It goes to the dev component, beside the libdlock.so link.
# Off for a Zig build (packaging/build-packages.sh): its objects need libc++.
option(DLOCK_PACKAGE_STATIC_ARCHIVE "Install libdlock.a with the development files" ON)
if(NOT TARGET dlock_static OR NOT DLOCK_PACKAGE_STATIC_ARCHIVE)
  return()
endif()

set(dlock_archive ${CMAKE_CURRENT_BINARY_DIR}/libdlock.a)
set(dlock_archive_script ${CMAKE_CURRENT_BINARY_DIR}/libdlock.mri)
set(dlock_archive_parts "ADDLIB $<TARGET_FILE:dlock_static>")
if(NOT DLOCK_HIREDIS_SHARED)
  foreach(embedded IN ITEMS hiredis::hiredis hiredis::hiredis_ssl)
    if(TARGET ${embedded})
      string(APPEND dlock_archive_parts "\nADDLIB $<TARGET_FILE:${embedded}>")
    endif()
  endforeach()
endif()
# The ZooKeeper C client is always embedded (its static archives).
if(DLOCK_HAVE_ZOOKEEPER)
  foreach(embedded IN ITEMS dlock_zookeeper dlock_zookeeper_hashtable)
    string(APPEND dlock_archive_parts "\nADDLIB $<TARGET_FILE:${embedded}>")
  endforeach()
endif()
# ar's MRI script (read from standard input, hence no VERBATIM below): the way
# GNU binutils merges archives.
file(GENERATE OUTPUT ${dlock_archive_script}
  CONTENT "CREATE ${dlock_archive}\n${dlock_archive_parts}\nSAVE\nEND\n")
add_custom_command(OUTPUT ${dlock_archive}
  COMMAND ${CMAKE_COMMAND} -E remove -f ${dlock_archive}
  COMMAND ${CMAKE_AR} -M < ${dlock_archive_script}
  COMMAND ${CMAKE_RANLIB} ${dlock_archive}
  DEPENDS dlock_static ${dlock_archive_script}
  COMMENT "Merging the core and hiredis into libdlock.a")
add_custom_target(dlock_static_archive ALL DEPENDS ${dlock_archive})
install(FILES ${dlock_archive} DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
