// A pipe whose ends are close-on-exec (COMMAND inherits neither) and closed on
// scope exit.
#pragma once

namespace dlock_cli {

class Pipe {
 public:
  enum class Mode { blocking, nonblocking };
  explicit Pipe(Mode mode);
  ~Pipe();
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  int read_end() const { return ends_[0]; }
  int write_end() const { return ends_[1]; }
  void close_write_end() noexcept;

 private:
  int ends_[2] = {-1, -1};
};

}  // namespace dlock_cli
