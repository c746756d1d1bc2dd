#include "backends/sql/lease_dialect.hpp"

#include "backends/sql/mysql_lease_dialect.hpp"
#include "backends/sql/pg_lease_dialect.hpp"
#include "backends/sql/shedlock_dialect.hpp"
#include "backends/sql/sql_values.hpp"
#include "common/error.hpp"

namespace dlock {
namespace sql {

void LeaseDialect::check_name(const std::string& name) const {
  if (name.empty() || name.size() > kMaxLockNameBytes) {
    throw InvalidArgument("name: a lock name is 1 to " + std::to_string(kMaxLockNameBytes) + " bytes, not " +
                          std::to_string(name.size()));
  }
}

std::optional<std::chrono::milliseconds> LeaseDialect::lease_left(SqlConnection& connection,
                                                                  const std::string& name) const {
  const std::optional<LeaseRow> found = row(connection, name);
  if (!found || !found->live()) return std::nullopt;
  return found->left;
}

std::optional<LeaseRow> LeaseDialect::row(SqlConnection& connection, const std::string& name) const {
  const SqlResult found = connection.execute(statements_.row, {name_param(name)});
  if (found.rows.empty()) return std::nullopt;
  const SqlRow& columns = found.rows.front();
  LeaseRow row;
  row.holder = holder_of(columns.at(0).value_or(""));
  row.left = std::chrono::milliseconds(integer_of(columns.at(1), connection));
  if (columns.at(2)) row.token = unsigned_of(columns.at(2), connection);
  return row;
}

std::vector<std::string> LeaseDialect::live_names(SqlConnection& connection,
                                                  const std::string& prefix) const {
  std::vector<std::string> names;
  for (const SqlRow& columns : connection.execute(statements_.live_names, {}).rows) {
    std::string name = bytes_of_hex(columns.at(0).value_or(""));
    if (name.compare(0, prefix.size(), prefix) == 0) names.push_back(std::move(name));
  }
  return names;
}

bool LeaseDialect::note_holder(SqlConnection& connection, const std::string& name, const std::string& owner,
                               const std::string& note) const {
  const std::string stored = HolderNote{owner, note}.stored();
  return connection
             .execute(statements_.note, {SqlParam::text(stored), name_param(name), SqlParam::text(owner)})
             .affected > 0;
}

std::optional<HolderNote> LeaseDialect::holder_note(SqlConnection& connection,
                                                    const std::string& name) const {
  const SqlResult found = connection.execute(statements_.read_note, {name_param(name)});
  if (found.rows.empty() || !found.rows.front().at(0)) return std::nullopt;
  std::optional<HolderNote> note = HolderNote::from_stored(*found.rows.front().at(0));
  if (!note) throw ProtocolError(connection.server() + ": the note of '" + name + "' is not a holder note");
  return note;
}

std::uint64_t LeaseDialect::force_end(SqlConnection& connection, const std::string& name) const {
  return connection.execute(statements_.force_end, {name_param(name)}).affected;
}

std::uint64_t LeaseDialect::release(SqlConnection& connection, const std::string& name,
                                    const std::string& owner, const std::string& grant,
                                    std::chrono::milliseconds keep) const {
  return connection.execute(statements_.release, release_params(name, stored_owner(owner), grant, keep))
      .affected;
}

std::uint64_t LeaseDialect::withdraw(SqlConnection& connection, const std::string& name,
                                     const std::string& owner) const {
  return connection.execute(statements_.withdraw, {name_param(name), SqlParam::text(stored_owner(owner))})
      .affected;
}

std::unique_ptr<LeaseDialect> lease_dialect(SqlDialect dialect, const std::string& table) {
  if (table == kShedLockTable) return shedlock_dialect(dialect);
  return dialect == SqlDialect::postgresql ? pg_lease_dialect(table) : mysql_lease_dialect(table);
}

}  // namespace sql
}  // namespace dlock
