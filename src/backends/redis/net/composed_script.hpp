// A script whose source is parts shared by several scripts (their Lua
// functions) followed by the script's own body; made once, as a
// function-local static.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "backends/redis/net/script.hpp"

namespace dlock {

class ComposedScript {
 public:
  ComposedScript(const char* name, std::initializer_list<const char*> parts)
      : script_(name, source({}, parts)) {}
  // `prelude`, a named list of shared parts (LockScripts::acquire_prelude()),
  // then `parts`.
  ComposedScript(const char* name, const std::vector<const char*>& prelude,
                 std::initializer_list<const char*> parts)
      : script_(name, source(prelude, parts)) {}
  Script& script() { return script_; }

  // The parts, one after the other, as one script's text.
  static std::string source(const std::vector<const char*>& prelude,
                            std::initializer_list<const char*> parts) {
    std::string text;
    for (const char* part : prelude) text.append(part).append("\n");
    for (const char* part : parts) text.append(part).append("\n");
    return text;
  }

 private:
  Script script_;
};

}  // namespace dlock
