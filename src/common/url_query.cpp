#include "common/url_query.hpp"

#include <algorithm>
#include <cstddef>

#include "common/error.hpp"

namespace dlock {

std::string quote_url_part(const std::string& text) {
  constexpr std::size_t longest_quote = 64;
  if (text.size() <= longest_quote) return "'" + text + "'";
  return "'" + text.substr(0, longest_quote) + "...'";
}

std::vector<QueryOption> query_options(const std::string& query) {
  std::vector<QueryOption> options;
  std::size_t start = 0;
  while (start <= query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string pair = query.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos) {
      throw InvalidArgument("url: query option " + quote_url_part(pair) + " has no value");
    }
    options.push_back({pair.substr(0, eq), pair.substr(eq + 1)});
  }
  return options;
}

int64_t url_integer(const std::string& text, int64_t min, int64_t max, const std::string& what) {
  if (text.empty() || text.size() > 18) {
    throw InvalidArgument("url: " + what + " must be an integer in [" + std::to_string(min) + ", " +
                          std::to_string(max) + "], got " + quote_url_part(text));
  }
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      throw InvalidArgument("url: " + what + " must be an integer, got " + quote_url_part(text));
    }
    value = value * 10 + (c - '0');
  }
  if (value < min || value > max) {
    throw InvalidArgument("url: " + what + " must be in [" + std::to_string(min) + ", " +
                          std::to_string(max) + "], got " + text);
  }
  return value;
}

}  // namespace dlock
