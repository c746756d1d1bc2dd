// A script whose source is a part shared by a primitive's scripts (its Lua
// functions) followed by the script's own body. It owns the joined text, which
// must live as long as the Script; made once, as a function-local static.
#pragma once

#include <string>

#include "redis/script.hpp"

namespace dlock {

class ComposedScript {
 public:
  ComposedScript(const char* name, const char* shared, const char* body)
      : source_(std::string(shared) + "\n" + body), script_(name, source_.c_str()) {}
  Script& script() { return script_; }

 private:
  const std::string source_;
  Script script_;
};

}  // namespace dlock
