// An election's leader record on SQL (sql_election_ops.hpp): the table
// <lock table>_leaders (dlock_locks_leaders), one row per election (the leadership's row name in the lock
// table, the term, the leader's value, since when by the server's clock in
// Unix milliseconds). A row counts only while the lock table's row of the same
// name is live with that term as its token: a leader whose lease ended, or who
// resigned, is nobody's leader, whatever its record says.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/sql/sql_connection.hpp"
#include "core/election_ops.hpp"

namespace dlock {
namespace sql {

class LeaderTable {
 public:
  // Beside the lock table `lock_table`, on a server of `dialect`.
  LeaderTable(SqlDialect dialect, std::string lock_table);

  // CREATE ... IF NOT EXISTS, and whether the table is there.
  std::vector<std::string> schema() const;
  bool schema_exists(SqlConnection& connection) const;

  // Records `value` as the leader of `name` for `term`, while `name`'s lease
  // is live with `term` as its token and no higher term is recorded; whether
  // it did. On PostgreSQL the name's release channel is notified.
  bool record(SqlConnection& connection, const std::string& name, std::uint64_t term,
              const std::string& value) const;
  // Replaces the value of `term` on the same conditions; whether it did.
  bool proclaim(SqlConnection& connection, const std::string& name, std::uint64_t term,
                const std::string& value) const;
  // The recorded leader whose lease is live; nullopt when there is none.
  std::optional<Leader> read(SqlConnection& connection, const std::string& name) const;

 private:
  const SqlDialect dialect_;
  const std::string lock_table_;
  const std::string table_;
  std::string record_;
  std::string proclaim_;
  std::string read_;
};

}  // namespace sql
}  // namespace dlock
