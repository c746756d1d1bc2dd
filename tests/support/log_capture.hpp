#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "dlock.h"

namespace dlock_test {

struct LogRecord {
  int level;
  std::string message;
};

// Installs itself as the process-wide log handler for its lifetime and keeps
// every record (they arrive on the clients' threads too).
class LogCapture {
 public:
  explicit LogCapture(int min_level = DLOCK_LOG_DEBUG);
  ~LogCapture();
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  std::vector<LogRecord> records() const;
  // Whether a record of exactly `level` contains every one of `parts`.
  bool has(int level, const std::vector<std::string>& parts) const;
  // All records, one a line, for assertion messages.
  std::string dump() const;

 private:
  static void on_record(int level, const char* message, void* self);

  mutable std::mutex mutex_;
  std::vector<LogRecord> records_;
};

}  // namespace dlock_test
