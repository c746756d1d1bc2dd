#include "log_capture.hpp"

#include <stdexcept>

namespace dlock_test {

LogCapture::LogCapture(int min_level) {
  if (dlock_set_log_handler(&LogCapture::on_record, this, min_level) != DLOCK_OK) {
    throw std::runtime_error(std::string("dlock_set_log_handler: ") + dlock_last_error());
  }
}

LogCapture::~LogCapture() {
  dlock_set_log_handler(nullptr, nullptr, 0);
}

void LogCapture::on_record(int level, const char* message, void* self) {
  auto* capture = static_cast<LogCapture*>(self);
  std::lock_guard<std::mutex> lock(capture->mutex_);
  capture->records_.push_back({level, message});
}

std::vector<LogRecord> LogCapture::records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return records_;
}

bool LogCapture::has(int level, const std::vector<std::string>& parts) const {
  for (const LogRecord& record : records()) {
    if (record.level != level) continue;
    bool all = true;
    for (const std::string& part : parts) all = all && record.message.find(part) != std::string::npos;
    if (all) return true;
  }
  return false;
}

std::string LogCapture::dump() const {
  std::string text;
  for (const LogRecord& record : records())
    text += std::to_string(record.level) + " " + record.message + "\n";
  return text;
}

}  // namespace dlock_test
