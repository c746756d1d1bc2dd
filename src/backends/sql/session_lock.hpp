// One owner's hold of one name in session mode (docs/design/backends.md 3.4):
// the lock is the server session's (an advisory lock, GET_LOCK), so the hold
// owns its connection, pinned for the hold's life, and is lost the moment
// that session ends (pg_terminate_backend, KILL, a server restart, a broken
// socket): the server has already freed the name. No lease: the server never
// ends a hold on its own, so S2 has no bound here; the token is the
// protection. Re-entry is counted by the caller, as for the lease lock. One
// thread uses an instance at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "backends/sql/session_dialect.hpp"
#include "backends/sql/sql_connection.hpp"

namespace dlock {
namespace sql {

class SessionLock {
 public:
  static constexpr std::size_t kNameMax = 1024;

  // `pinned` serves this hold only. Throws InvalidArgument naming `name` for
  // a name of 0 or more than 1,024 bytes.
  SessionLock(std::unique_ptr<SqlConnection> pinned, const SessionDialect& dialect, std::string name);

  // One attempt. Throws ConnectionError (the session, and any lock its
  // answer gave, is gone with it: attempt again).
  bool try_acquire();
  // Attempts until granted or `wait` has passed, backing off between attempts
  // (LeaseBackoff without a lease end: 10 ms doubling to 500 ms).
  bool acquire(std::chrono::milliseconds wait);
  // Frees the name. Throws LostError when the session ended since the grant
  // (the server freed the name then), NotOwnerError when not held.
  void release();
  // Whether the hold was lost: waits up to `wait` for the pinned socket to
  // turn readable or close (an idle session receives nothing unless it is
  // being ended), then confirms with a round trip. Once lost, always lost.
  bool lost(std::chrono::milliseconds wait = std::chrono::milliseconds(0));

  bool held() const { return held_; }
  std::uint64_t token() const { return token_; }
  const std::string& name() const { return name_; }
  // The pinned session's id (SqlConnection::session_id), for tests and status.
  std::uint64_t session_id() const { return session_; }

 private:
  std::unique_ptr<SqlConnection> connection_;
  const SessionDialect& dialect_;
  std::string name_;
  bool held_ = false;
  bool lost_ = false;
  std::uint64_t token_ = 0;
  std::uint64_t session_ = 0;  // the session that holds; another one is not ours
};

}  // namespace sql
}  // namespace dlock
