#pragma once

#include <memory>
#include <string>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The lease-mode statements on PostgreSQL, on `table`.
std::unique_ptr<LeaseDialect> pg_lease_dialect(const std::string& table);

}  // namespace sql
}  // namespace dlock
