# Installs the runtime and dev components of BUILD_DIR into a fresh prefix, then
# builds and runs a C consumer of it twice: with find_package(dlock) and with
# pkg-config.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE failed)
  if(failed)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${failed}): ${command}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
foreach(component IN ITEMS runtime dev)
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component ${component})
endforeach()

# find_package(dlock): the exported package must be complete on its own.
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/cmake-consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-consumer)
run(${WORK_DIR}/cmake-consumer/consumer ${EXPECTED_VERSION})

# pkg-config: dlock.pc must point into the prefix it was installed to.
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs dlock
  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "pkg-config --cflags --libs dlock failed")
endif()
execute_process(COMMAND pkg-config --modversion dlock
  OUTPUT_VARIABLE pc_version OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT pc_version STREQUAL EXPECTED_VERSION)
  message(FATAL_ERROR "dlock.pc says version '${pc_version}', expected ${EXPECTED_VERSION}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${C_COMPILER} -std=c99 -Wall -Werror ${CONSUMER_DIR}/main.c ${flags}
    -Wl,-rpath,${prefix}/${LIBDIR} -o ${WORK_DIR}/pkgconfig-consumer)
run(${WORK_DIR}/pkgconfig-consumer ${EXPECTED_VERSION})
