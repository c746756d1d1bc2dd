# Writes OUT, a C++ file that includes HEADER (which declares them) and defines
# one `extern const char* const` per Lua script in INPUTS (a ;-list), named
# NAMESPACE::<file stem>. Run by dlock_embed_lua() (DlockLua.cmake).
set(body "// Generated from Lua scripts by cmake/DlockEmbed.cmake. Do not edit.\n#include \"${HEADER}\"\n\nnamespace ${NAMESPACE} {\n")
foreach(input IN LISTS INPUTS)
  get_filename_component(stem "${input}" NAME_WE)
  file(READ "${input}" text)
  string(APPEND body "const char* const ${stem} = R\"dlocklua(${text})dlocklua\";\n")
endforeach()
string(APPEND body "}  // namespace ${NAMESPACE}\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
