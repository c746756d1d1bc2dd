#include "backends/sql/sql_pool.hpp"

namespace dlock {
namespace sql {

SqlPool::SqlPool(SqlUrl url) : url_(std::move(url)) {
  idle_.push_back(connect(url_));
}

SqlPool::Lease SqlPool::take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<SqlConnection> connection = std::move(idle_.back());
      idle_.pop_back();
      return Lease(*this, std::move(connection));
    }
  }
  return Lease(*this, connect(url_));
}

void SqlPool::give_back(std::unique_ptr<SqlConnection> connection) {
  std::unique_ptr<SqlConnection> closing;
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) {
    closing = std::move(connection);
    return;
  }
  idle_.push_back(std::move(connection));
}

void SqlPool::close() {
  std::vector<std::unique_ptr<SqlConnection>> closing;
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  closing.swap(idle_);
}

}  // namespace sql
}  // namespace dlock
