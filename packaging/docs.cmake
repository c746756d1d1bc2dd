# Each package carries /usr/share/doc/<package>/{copyright,changelog.gz}, as
# Debian policy asks of every binary package.
find_program(GZIP_EXECUTABLE gzip REQUIRED)
# The date honours SOURCE_DATE_EPOCH (scripts/release.sh sets it from the last
# commit), so builds for different architectures ship the same changelog.gz.
string(TIMESTAMP DLOCK_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(changelog.in ${CMAKE_CURRENT_BINARY_DIR}/changelog @ONLY)
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz
  COMMAND ${GZIP_EXECUTABLE} -9nkf ${CMAKE_CURRENT_BINARY_DIR}/changelog
  DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/changelog)
add_custom_target(dlock_package_docs ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz)

set(component_packages runtime:libdlock${DLOCK_ABI_VERSION} dev:libdlock-dev)
if(TARGET dlock_cli)
  list(APPEND component_packages tools:dlock-tools)
endif()
foreach(component_package IN LISTS component_packages)
  string(REPLACE ":" ";" pair ${component_package})
  list(GET pair 0 component)
  list(GET pair 1 package)
  install(FILES copyright ${CMAKE_CURRENT_BINARY_DIR}/changelog.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()
