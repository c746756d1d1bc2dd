#include "c_api/c_string.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace dlock::c_api {

char* c_string(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

}  // namespace dlock::c_api
