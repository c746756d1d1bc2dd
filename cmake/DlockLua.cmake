# dlock_embed_lua(OUTPUT <file.cpp> HEADER <header.hpp> NAMESPACE <ns> SCRIPTS <script.lua>...)
#
# Generates OUTPUT (relative to the current binary dir) at build time: a C++
# file that includes HEADER and defines <ns>::<file stem> as the text of
# each script in SCRIPTS (relative to the current source dir), so the scripts
# live as .lua files in the tree and are compiled in (see DlockEmbed.cmake).
function(dlock_embed_lua)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUTPUT;HEADER;NAMESPACE" "SCRIPTS")
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${arg_OUTPUT})
  list(TRANSFORM arg_SCRIPTS PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE scripts)
  set(embed ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/DlockEmbed.cmake)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} "-DOUT=${output}" "-DHEADER=${arg_HEADER}" "-DNAMESPACE=${arg_NAMESPACE}" "-DINPUTS=${scripts}"
            -P ${embed}
    DEPENDS ${scripts} ${embed}
    COMMENT "Embedding the Lua scripts declared in ${arg_HEADER}"
    VERBATIM)
endfunction()
