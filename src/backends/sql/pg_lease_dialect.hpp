#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "backends/sql/lease_dialect.hpp"

namespace dlock {
namespace sql {

// The lease-mode statements on PostgreSQL, on `table`. Release notifies the
// name's channel (pg_listener).
std::unique_ptr<LeaseDialect> pg_lease_dialect(const std::string& table);

// The SQL expression of a name's NOTIFY channel on `table`, the name being the
// bytea parameter `name_param` ("$1"): 'dlock_' || md5(table NUL name), 38
// characters, under PostgreSQL's 63.
std::string pg_release_channel(const std::string& table, const std::string& name_param);

// An acquire's answer: one row (granted, token, holder, holder's lease left
// in ms), none when the row went between the statement's two looks.
LeaseAttempt pg_lease_attempt(const SqlResult& result, const SqlConnection& connection);

// A duration as `cast($n as interval)` takes it, as ShedLock sends it: "N milliseconds".
SqlParam pg_interval(std::chrono::milliseconds value);

}  // namespace sql
}  // namespace dlock
