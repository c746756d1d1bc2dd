#include "duration.hpp"

#include <cctype>
#include <limits>

#include "failure.hpp"

namespace dlock_cli {
namespace {

int64_t unit_ms(const std::string& unit) {
  if (unit == "ms") return 1;
  if (unit == "s") return 1000;
  if (unit == "m") return 60 * 1000;
  if (unit == "h") return 60 * 60 * 1000;
  if (unit == "d") return 24 * 60 * 60 * 1000;
  return 0;
}

}  // namespace

int64_t parse_duration_ms(const std::string& text, const std::string& option) {
  const auto bad = [&](const std::string& why) {
    return usage_error(option + ": '" + text + "' is not a duration: " + why +
                       " (use e.g. 500ms, 30s, 5m, 1h, 1h30m)");
  };
  if (text.empty()) throw bad("it is empty");
  constexpr int64_t max_ms = std::numeric_limits<int64_t>::max() / 2;
  int64_t total = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t digits_start = at;
    int64_t amount = 0;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      amount = amount * 10 + (text[at] - '0');
      if (amount > max_ms) throw bad("it is too long");
      ++at;
    }
    if (at == digits_start) throw bad("expected a number at '" + text.substr(at) + "'");
    const std::size_t unit_start = at;
    while (at < text.size() && std::isalpha(static_cast<unsigned char>(text[at]))) ++at;
    const std::string unit = text.substr(unit_start, at - unit_start);
    if (unit.empty()) throw bad("the number " + std::to_string(amount) + " has no unit");
    const int64_t scale = unit_ms(unit);
    if (scale == 0) throw bad("unknown unit '" + unit + "'");
    if (amount > (max_ms - total) / scale) throw bad("it is too long");
    total += amount * scale;
  }
  return total;
}

}  // namespace dlock_cli
