#include "arguments.hpp"

#include <cerrno>
#include <cstdlib>

#include "failure.hpp"

namespace dlock_cli {

bool Arguments::take_flag(const std::string& long_name, const std::string& short_name) {
  if (done() || (peek() != long_name && (short_name.empty() || peek() != short_name))) return false;
  ++at_;
  return true;
}

bool Arguments::take_value(const std::string& long_name, std::string& value) {
  if (done()) return false;
  const std::string& item = peek();
  if (item.compare(0, long_name.size() + 1, long_name + "=") == 0) {
    value = item.substr(long_name.size() + 1);
    ++at_;
    return true;
  }
  if (item != long_name) return false;
  if (at_ + 1 >= items_.size()) throw usage_error(long_name + " needs a value");
  value = items_[at_ + 1];
  at_ += 2;
  return true;
}

int64_t parse_integer(const std::string& text, int64_t min, int64_t max, const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max) {
    throw usage_error(option + ": '" + text + "' is not an integer from " + std::to_string(min) +
                      " to " + std::to_string(max));
  }
  return value;
}

void reject_unknown(const Arguments& args, const std::string& command) {
  if (args.at_option()) throw usage_error("dlock " + command + ": unknown option '" + args.peek() + "'");
  throw usage_error("dlock " + command + ": unexpected argument '" + args.peek() + "'");
}

}  // namespace dlock_cli
