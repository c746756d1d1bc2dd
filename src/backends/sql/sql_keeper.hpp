// The watchdog's SQL half (core/hold_keeper.hpp): every due hold of the
// client renewed in one statement per lease (LeaseDialect::renew: all the
// client's watchdog holds share one), each reported owned when the server
// extended its row, lost when the row had ended or changed hands (a renewal
// never brings a hold back). A hold is found by its name, its token
// (GrantRef::token) and its grant text (GrantRef::locator), on its table
// (SqlHeld::rows: a semaphore's leases add one statement per lease).
#pragma once

#include <functional>
#include <string>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/sql_held.hpp"
#include "backends/sql/sql_pool.hpp"
#include "core/hold_keeper.hpp"

namespace dlock {

// The client id an owner field "<client-uuid>:<owner>" starts with: what a
// renewal (LeaseDialect::renew) matches every row of the client by.
std::string client_of(const std::string& owner_field);

// The table a hold of a SQL client is on (its resource is a SqlHeld).
SqlRows rows_of_hold(const Hold& hold);

class SqlKeeper final : public HoldKeeper {
 public:
  // The statements of a hold's table (SqlClientSession::rows).
  using RowsOf = std::function<const sql::LeaseDialect&(SqlRows)>;

  // `pool` outlives the keeper (the client's session owns both).
  SqlKeeper(sql::SqlPool& pool, RowsOf rows_of) : pool_(pool), rows_of_(std::move(rows_of)) {}

  // One report, on this thread; the round trip is bounded by the URL's io_timeout_ms.
  void renew(const std::vector<Hold>& due, Clock::time_point sent_at, Clock::time_point deadline,
             const ReportSink& sink) override;
  // Nothing runs on its own.
  void wait_for_renewals() override {}
  int64_t settle(const PendingRequest& request, Clock::time_point deadline) override;

 private:
  sql::SqlPool& pool_;
  const RowsOf rows_of_;
};

}  // namespace dlock
