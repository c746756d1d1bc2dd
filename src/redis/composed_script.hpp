// A script whose source is a part shared by a primitive's scripts (its Lua
// functions) followed by the script's own body; made once, as a
// function-local static.
#pragma once

#include <string>

#include "redis/script.hpp"

namespace dlock {

class ComposedScript {
 public:
  ComposedScript(const char* name, const char* shared, const char* body)
      : script_(name, std::string(shared) + "\n" + body) {}
  Script& script() { return script_; }

 private:
  Script script_;
};

}  // namespace dlock
