#include "backends/zookeeper/zk_paths.hpp"

#include <cstdint>

#include "common/error.hpp"

namespace dlock {
namespace zk {
namespace {

bool unreserved(unsigned char byte) {
  return (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') ||
         byte == '.' || byte == '_' || byte == '~' || byte == '-';
}

// Decodes the UTF-8 character at `at`, advancing it; false on a malformed,
// overlong or surrogate sequence.
bool next_code_point(const std::string& text, std::size_t& at, std::uint32_t& code_point) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length;
  std::uint32_t minimum;
  if (lead < 0x80) {
    code_point = lead;
    ++at;
    return true;
  } else if ((lead & 0xe0) == 0xc0) {
    length = 2, minimum = 0x80, code_point = lead & 0x1fu;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3, minimum = 0x800, code_point = lead & 0x0fu;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4, minimum = 0x10000, code_point = lead & 0x07u;
  } else {
    return false;
  }
  if (at + length > text.size()) return false;
  for (std::size_t i = 1; i < length; ++i) {
    const auto continuation = static_cast<unsigned char>(text[at + i]);
    if ((continuation & 0xc0) != 0x80) return false;
    code_point = (code_point << 6) | (continuation & 0x3fu);
  }
  at += length;
  return code_point >= minimum && code_point <= 0x10ffff && !(code_point >= 0xd800 && code_point <= 0xdfff);
}

// The characters PathUtils.validatePath refuses (it tests Java chars, so every
// supplementary character, a surrogate pair there, falls in its 0xd800-0xf8ff range).
bool refused_by_curator(std::uint32_t c) {
  return c == 0 || c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) ||
         (c >= 0xfff0 && c <= 0xffff) || c >= 0x10000;
}

[[noreturn]] void invalid(const std::string& path, const std::string& why) {
  throw InvalidArgument("invalid ZooKeeper lock path '" + path + "': " + why);
}

}  // namespace

void validate_path(const std::string& path) {
  if (path.empty() || path[0] != '/') invalid(path, "it must start with '/'");
  if (path.size() > max_name_bytes) invalid(path.substr(0, 64) + "...", "longer than 1024 bytes");
  if (path.size() == 1) return;
  if (path.back() == '/') invalid(path, "it must not end with '/'");
  std::size_t at = 0;
  while (at < path.size()) {
    std::uint32_t c = 0;
    const std::size_t start = at;
    if (!next_code_point(path, at, c)) invalid(path, "not valid UTF-8 at byte " + std::to_string(start));
    if (refused_by_curator(c)) invalid(path, "invalid character at byte " + std::to_string(start));
  }
  std::size_t begin = 1;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    const std::string component = path.substr(begin, end - begin);
    if (component.empty()) invalid(path, "empty component at byte " + std::to_string(begin));
    if (component == "." || component == "..") invalid(path, "relative component '" + component + "'");
    begin = end + 1;
  }
}

std::string escape_component(const std::string& name) {
  if (name == ".") return "%2E";
  if (name == "..") return "%2E%2E";
  static const char hex[] = "0123456789ABCDEF";
  std::string escaped;
  escaped.reserve(name.size());
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (unreserved(byte)) {
      escaped += c;
    } else {
      escaped += '%';
      escaped += hex[byte >> 4];
      escaped += hex[byte & 0x0f];
    }
  }
  return escaped;
}

std::optional<std::string> unescape_component(const std::string& component) {
  if (component == "%2E") return std::string(".");
  if (component == "%2E%2E") return std::string("..");
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string name;
  for (std::size_t i = 0; i < component.size(); ++i) {
    const auto byte = static_cast<unsigned char>(component[i]);
    if (unreserved(byte)) {
      name += component[i];
      continue;
    }
    if (component[i] != '%' || i + 2 >= component.size()) return std::nullopt;
    const int high = digit(component[i + 1]);
    const int low = digit(component[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    const auto decoded = static_cast<unsigned char>(high * 16 + low);
    if (unreserved(decoded)) return std::nullopt;  // escape_component leaves those as they are
    name += static_cast<char>(decoded);
    i += 2;
  }
  if (name.empty() || name == "." || name == "..") return std::nullopt;
  return name;
}

std::string lock_path(const std::string& name, const char* root) {
  if (name.empty() || name.size() > max_name_bytes) {
    throw InvalidArgument("lock name must be 1 to " + std::to_string(max_name_bytes) + " bytes, not " +
                          std::to_string(name.size()));
  }
  if (name[0] == '/') {
    validate_path(name);
    if (name == "/") throw InvalidArgument("the ZooKeeper root '/' cannot be a lock path");
    return name;
  }
  return std::string(root) + "/" + escape_component(name);
}

}  // namespace zk
}  // namespace dlock
