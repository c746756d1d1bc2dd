// Runs a command-line tool to its end and keeps what it printed: how the SQL
// server fixtures talk to their servers (psql, mariadb), through the servers'
// own clients rather than the code under test.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace dlock_test {

struct ProgramOutput {
  int status = 0;      // the raw wait status (describe_wait_status() explains it)
  std::string output;  // stdout and stderr, interleaved as written

  bool succeeded() const;
};

// Runs `argv` (argv[0] found on PATH) with its output in a file under $TMPDIR,
// killing it when it is still running after `timeout` (then the status says so).
ProgramOutput run_program(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace dlock_test
