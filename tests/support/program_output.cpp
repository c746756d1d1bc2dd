#include "program_output.hpp"

#include <sys/wait.h>

#include "child_process.hpp"
#include "temp_dir.hpp"
#include "text_file.hpp"

namespace dlock_test {

bool ProgramOutput::succeeded() const {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

ProgramOutput run_program(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  TempDir dir;
  const std::string output_path = dir.file("output");
  ProgramOutput result;
  {
    ChildProcess child(argv, output_path);
    const auto status = child.wait_for(timeout);
    result.status = status ? *status : child.kill_and_reap();
  }
  result.output = read_text_file(output_path);
  return result;
}

}  // namespace dlock_test
