// A random (version 4) UUID in its 36-character text form: a client's id,
// and the protected prefix of a ZooKeeper lock node (Curator's
// isProtectedZNode checks that length).
#pragma once

#include <string>

namespace dlock {

std::string random_uuid();

}  // namespace dlock
