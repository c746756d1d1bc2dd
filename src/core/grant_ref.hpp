// What a backend needs to find one grant again, to renew or release it
// (docs/design/backends.md, 1.3); a Hold keeps it.
#pragma once

#include <cstdint>
#include <string>

namespace dlock {

struct GrantRef {
  std::string owner_field;  // <client-uuid>:<owner> as the server stores it (a permit: its raw id)
  std::string locator;      // where it lives when the name does not say (ZooKeeper: the node); Redis: empty
  uint64_t token = 0;       // the grant's fencing token
};

}  // namespace dlock
