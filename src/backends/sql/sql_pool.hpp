// A client's SQL connections (docs/design/backends.md 3): one per statement
// running at once, as redis-plus-plus's pool hands them out: taken idle or
// opened anew, given back by the guard, no socket I/O under the mutex. A
// connection that broke is given back too: its next execute() opens it again.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_url.hpp"

namespace dlock {
namespace sql {

class SqlPool {
 public:
  // Opens the first connection at once: throws ConnectionError, AuthError.
  explicit SqlPool(SqlUrl url);

  // A connection while it lives.
  class Lease {
   public:
    Lease(SqlPool& pool, std::unique_ptr<SqlConnection> connection)
        : pool_(&pool), connection_(std::move(connection)) {}
    ~Lease() { pool_->give_back(std::move(connection_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;

    SqlConnection& operator*() const { return *connection_; }
    SqlConnection* operator->() const { return connection_.get(); }

   private:
    SqlPool* pool_;
    std::unique_ptr<SqlConnection> connection_;
  };

  // An idle connection, else a new one (throws ConnectionError, AuthError).
  Lease take();
  // Closes the idle connections; those taken close when given back.
  void close();

 private:
  void give_back(std::unique_ptr<SqlConnection> connection);

  const SqlUrl url_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<SqlConnection>> idle_;
  bool closed_ = false;
};

}  // namespace sql
}  // namespace dlock
