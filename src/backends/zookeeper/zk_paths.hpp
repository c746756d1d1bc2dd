// Lock names -> ZooKeeper paths (docs/design/backends.md 2.5). A name starting
// with '/' is a path the caller chose, checked as Curator's
// PathUtils.validatePath checks it, so Curator can use the same lock; any
// other name is one escaped component under /dlock.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace dlock {
namespace zk {

// DLOCK_NAME_MAX (dlock.h, which the backends do not include).
constexpr std::size_t max_name_bytes = 1024;
constexpr const char* names_root = "/dlock";
// Elections' own root, so that an election never meets a lock of its name.
constexpr const char* elections_root = "/dlock_election";

// The lock's path for `name`: the name itself when it is a path, else one
// component under `root`; throws InvalidArgument naming what is wrong.
std::string lock_path(const std::string& name, const char* root = names_root);

// Throws InvalidArgument unless `path` is a path Curator accepts: starts with
// '/', no empty component, no "." or ".." component, no trailing '/' (save the
// root), valid UTF-8 without NUL, control or private-use characters.
void validate_path(const std::string& path);

// One path component for any bytes: those outside [A-Za-z0-9._~-] become %XX,
// and "." and ".." (which ZooKeeper refuses) become %2E and %2E%2E.
std::string escape_component(const std::string& name);
// The name escape_component() made `component` of; nullopt for a component it
// cannot have made (a node under /dlock someone else created).
std::optional<std::string> unescape_component(const std::string& component);

}  // namespace zk
}  // namespace dlock
