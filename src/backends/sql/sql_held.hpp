// A SQL hold's resource (core/held_resource.hpp): the name and which of the
// session's tables its row is on, so that the keeper's renewal and the
// session's release reach the row (SqlClientSession::rows).
#pragma once

#include <string>

#include "core/held_resource.hpp"

namespace dlock {

enum class SqlRows {
  locks,          // the URL's lock table, a row per name
  permit_leases,  // dlock_semaphore_lease, a row per lease (permit_tables.hpp)
};

class SqlHeld final : public HeldResource {
 public:
  SqlHeld(std::string name, SqlRows rows)
      : name_(std::move(name)),
        rows_(rows),
        hold_key_(rows == SqlRows::locks ? name_ : "semaphore lease:" + name_) {}

  const std::string& name() const override { return name_; }
  const std::string& hold_key() const override { return hold_key_; }
  SqlRows rows() const { return rows_; }

 private:
  const std::string name_;
  const SqlRows rows_;
  const std::string hold_key_;
};

}  // namespace dlock
