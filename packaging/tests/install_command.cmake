# Installs the runtime and tools components of BUILD_DIR into a fresh prefix
# and runs <prefix>/bin/dlock --help with no LD_LIBRARY_PATH: the command must
# find the libdlock.so.1 installed beside it (its $ORIGIN-relative rpath),
# wherever the prefix is.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
foreach(component IN ITEMS runtime tools)
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component ${component}
    OUTPUT_QUIET RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "installing the ${component} component into ${prefix} failed")
  endif()
endforeach()

# Shell completion where bash-completion and zsh find a package's files.
foreach(completion IN ITEMS share/bash-completion/completions/dlock share/zsh/vendor-completions/_dlock)
  if(NOT EXISTS ${prefix}/${completion})
    message(FATAL_ERROR "the tools component did not install ${completion}")
  endif()
endforeach()

unset(ENV{LD_LIBRARY_PATH})
set(command ${prefix}/bin/dlock)
execute_process(COMMAND ${command} --help
  OUTPUT_VARIABLE help ERROR_VARIABLE error RESULT_VARIABLE failed)
if(failed OR NOT help MATCHES "dlock run")
  message(FATAL_ERROR "${command} --help failed (${failed}): ${error}")
endif()

# And the library it loaded is the installed one, not one found elsewhere.
set(ENV{LD_TRACE_LOADED_OBJECTS} 1)
execute_process(COMMAND ${command} OUTPUT_VARIABLE loaded RESULT_VARIABLE failed)
unset(ENV{LD_TRACE_LOADED_OBJECTS})
string(REGEX MATCH "libdlock\\.so\\.[0-9]+ => [^ ]+" resolved "${loaded}")
if(NOT resolved MATCHES "=> ${prefix}/")
  message(FATAL_ERROR "${command} loads '${resolved}', not the library installed under ${prefix}:\n${loaded}")
endif()
message(STATUS "${command}: ${resolved}")
