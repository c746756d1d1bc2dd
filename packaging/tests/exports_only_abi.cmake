# Fails unless every dynamic symbol LIBRARY defines is part of the C ABI (dlock_*).
execute_process(COMMAND nm -D --defined-only ${LIBRARY}
  OUTPUT_VARIABLE symbols RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "nm -D --defined-only ${LIBRARY} failed")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(strays "")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  # "<address> <type> <name>[@@VERSION]"
  string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] " "" name "${line}")
  string(REGEX REPLACE "@.*$" "" name "${name}")
  # The version script's node (DLOCK_1) is listed as an absolute symbol: it is
  # the version definition itself, not a symbol anyone can bind to.
  if(line MATCHES " A DLOCK_[0-9]+$")
    continue()
  endif()
  if(NOT name MATCHES "^dlock_")
    list(APPEND strays "${name}")
  endif()
endforeach()
if(strays)
  list(JOIN strays "\n  " listing)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside the C ABI:\n  ${listing}")
endif()
message(STATUS "${LIBRARY}: only dlock_* symbols are exported")
