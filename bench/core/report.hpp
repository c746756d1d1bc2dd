// The table the benchmark prints: per section, rows of (figure, dlock, the
// reference it is compared with, ratio, target, verdict) and notes that say
// what was measured.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace dlock_bench {

enum class Verdict { info, met, missed };

struct Row {
  std::string figure;
  std::string dlock;
  std::string reference;
  std::string ratio;
  std::string target;
  Verdict verdict = Verdict::info;
};

class Report {
 public:
  void section(std::string title);
  void row(Row row);
  void note(std::string text);
  void print(std::ostream& out) const;
  int missed() const;

 private:
  struct Entry {
    enum class Kind { title, row, note } kind;
    Row row;
    std::string text;
  };
  std::vector<Entry> entries_;
};

// Number formats used in the table.
std::string grouped(int64_t value);             // 1,234,567
std::string fixed(double value, int decimals);  // 0.93
std::string duration(int64_t ns);               // 812 ns, 43.1 us, 1.20 ms
Verdict verdict(bool met);

}  // namespace dlock_bench
