#include "report.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iomanip>

namespace dlock_bench {

void Report::section(std::string title) {
  entries_.push_back({Entry::Kind::title, {}, std::move(title)});
}

void Report::row(Row row) {
  entries_.push_back({Entry::Kind::row, std::move(row), {}});
}

void Report::note(std::string text) {
  entries_.push_back({Entry::Kind::note, {}, std::move(text)});
}

int Report::missed() const {
  return static_cast<int>(std::count_if(entries_.begin(), entries_.end(), [](const Entry& entry) {
    return entry.kind == Entry::Kind::row && entry.row.verdict == Verdict::missed;
  }));
}

void Report::print(std::ostream& out) const {
  const auto cells = [](const Row& row) {
    static const char* const words[] = {"", "met", "MISSED"};
    return std::array<std::string, 6>{row.figure, row.dlock,  row.reference,
                                      row.ratio,  row.target, words[static_cast<int>(row.verdict)]};
  };
  std::array<std::size_t, 6> widths{};
  const Row header{"figure", "dlock", "reference", "ratio", "target", Verdict::info};
  std::vector<Row> rows = {header};
  for (const Entry& entry : entries_) {
    if (entry.kind == Entry::Kind::row) rows.push_back(entry.row);
  }
  for (const Row& row : rows) {
    const auto texts = cells(row);
    for (std::size_t i = 0; i < widths.size(); ++i) widths[i] = std::max(widths[i], texts[i].size());
  }
  const auto print_row = [&](const Row& row) {
    const auto texts = cells(row);
    out << "  ";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      out << std::left << std::setw(static_cast<int>(widths[i]) + 2) << texts[i];
    }
    out << '\n';
  };
  print_row(header);
  for (const Entry& entry : entries_) {
    switch (entry.kind) {
      case Entry::Kind::title:
        out << '\n' << entry.text << '\n';
        break;
      case Entry::Kind::row:
        print_row(entry.row);
        break;
      case Entry::Kind::note:
        out << "    - " << entry.text << '\n';
        break;
    }
  }
}

std::string grouped(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return value < 0 ? "-" + digits : digits;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string duration(int64_t ns) {
  if (ns < 10000) return grouped(ns) + " ns";
  if (ns < 10000000) return fixed(static_cast<double>(ns) / 1e3, 1) + " us";
  return fixed(static_cast<double>(ns) / 1e6, 2) + " ms";
}

Verdict verdict(bool met) {
  return met ? Verdict::met : Verdict::missed;
}

}  // namespace dlock_bench
