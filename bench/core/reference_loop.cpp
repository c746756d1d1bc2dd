#include "reference_loop.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "child_process.hpp"
#include "text_file.hpp"

namespace dlock_bench {

double reference_pairs_per_second(const std::vector<std::string>& argv, const std::string& output_path,
                                  int timeout_ms, const std::string& who) {
  dlock_test::ChildProcess loop(argv, output_path);
  const std::optional<int> status = loop.wait_for(std::chrono::milliseconds(timeout_ms));
  const std::string output = dlock_test::read_text_file(output_path);
  const auto pairs_at = output.find("pairs ");
  if (!status || *status != 0 || pairs_at == std::string::npos) {
    throw std::runtime_error(who + "'s uncontended loop failed: " + output);
  }
  std::istringstream answer(output.substr(pairs_at));
  std::string word;
  int64_t pairs = 0;
  int64_t elapsed_ns = 0;
  answer >> word >> pairs >> elapsed_ns;
  return static_cast<double>(pairs) * 1e9 / static_cast<double>(elapsed_ns);
}

}  // namespace dlock_bench
