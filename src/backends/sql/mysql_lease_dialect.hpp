#pragma once

#include <memory>
#include <string>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The lease-mode statements on MySQL 8 / MariaDB 10.6+, on `table`.
std::unique_ptr<LeaseDialect> mysql_lease_dialect(const std::string& table);

}  // namespace sql
}  // namespace dlock
