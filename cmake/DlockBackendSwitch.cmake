# The switch that turns one backend on or off, alike for every backend:
# DLOCK_WITH_<NAME> is AUTO (on when its client library is found), ON (fail
# without it) or OFF. A switch set in the environment wins over the cache, so a
# build tree configured earlier cannot keep a backend its builder now turns on
# or off (scripts/release.sh sets the environment for every build it starts).
#
# dlock_backend_switch(<NAME> <help>) sets, in the caller's scope,
# dlock_<NAME>_wanted (AUTO or a CMake boolean, upper case) and
# dlock_<NAME>_given ("DLOCK_WITH_<NAME>=<value>", and " in the environment"
# when it came from there), for messages.
function(dlock_backend_switch name help)
  set(DLOCK_WITH_${name} AUTO CACHE STRING "${help}")
  set_property(CACHE DLOCK_WITH_${name} PROPERTY STRINGS AUTO ON OFF)
  set(value "${DLOCK_WITH_${name}}")
  set(given "DLOCK_WITH_${name}=${value}")
  if(DEFINED ENV{DLOCK_WITH_${name}})
    set(value "$ENV{DLOCK_WITH_${name}}")
    set(given "DLOCK_WITH_${name}=${value} in the environment")
  endif()
  string(TOUPPER "${value}" wanted)
  if(NOT wanted MATCHES "^(AUTO|ON|OFF|TRUE|FALSE|YES|NO|1|0)$")
    message(FATAL_ERROR "${given}: it must be AUTO, ON or OFF")
  endif()
  set(dlock_${name}_wanted "${wanted}" PARENT_SCOPE)
  set(dlock_${name}_given "${given}" PARENT_SCOPE)
endfunction()
