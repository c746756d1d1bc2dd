#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The lease-mode statements on MySQL 8 / MariaDB 10.6+, on `table`.
std::unique_ptr<LeaseDialect> mysql_lease_dialect(const std::string& table);

// A duration as `INTERVAL ? MICROSECOND` and TIMESTAMPADD(MICROSECOND, ?, ..) take it.
SqlParam mysql_microseconds(std::chrono::milliseconds value);

}  // namespace sql
}  // namespace dlock
