// A cursor over a subcommand's arguments: options first ("--name VALUE",
// "--name=VALUE", "-n"), then operands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dlock_cli {

class Arguments {
 public:
  Arguments(int argc, char** argv, int first) : items_(argv + first, argv + argc) {}

  bool done() const { return at_ >= items_.size(); }
  const std::string& peek() const { return items_[at_]; }
  std::string next() { return items_[at_++]; }
  bool at_option() const { return !done() && peek().size() > 1 && peek()[0] == '-'; }

  // Consumes the flag `long_name` (or `short_name`, may be empty) if it is next.
  bool take_flag(const std::string& long_name, const std::string& short_name = "");
  // Consumes `long_name VALUE` or `long_name=VALUE` if next; throws a usage
  // Failure when the value is missing.
  bool take_value(const std::string& long_name, std::string& value);

  // The arguments not consumed yet.
  std::vector<std::string> rest() const { return {items_.begin() + at_, items_.end()}; }

 private:
  std::vector<std::string> items_;
  std::size_t at_ = 0;
};

// An integer option value in [min, max]; throws a usage Failure naming `option`.
int64_t parse_integer(const std::string& text, int64_t min, int64_t max, const std::string& option);

// Fails with a usage message for the option (or stray operand) next in `args`.
[[noreturn]] void reject_unknown(const Arguments& args, const std::string& command);

}  // namespace dlock_cli
