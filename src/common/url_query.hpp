// The pieces every backend's URL parser shares: a part of the URL quoted in
// a message, the query's key=value options, and a bounded integer option.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlock {

// Part of the URL quoted in a message, cut short so a huge URL does not make
// a huge message. Callers never quote the userinfo.
std::string quote_url_part(const std::string& text);

struct QueryOption {
  std::string key;
  std::string value;  // as written: percent-decoding is the option's business
};

// The options of `query` (the text after '?') in order; empty pairs are
// skipped. Throws InvalidArgument "url: query option 'x' has no value".
std::vector<QueryOption> query_options(const std::string& query);

// `text` as an integer in [min, max]; InvalidArgument naming `what` otherwise.
int64_t url_integer(const std::string& text, int64_t min, int64_t max, const std::string& what);

}  // namespace dlock
