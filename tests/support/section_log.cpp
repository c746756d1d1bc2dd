#include "section_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dlock_test {

SectionLog::SectionLog(const std::string& path)
    : fd_(open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw std::runtime_error("open " + path + ": " + std::strerror(errno));
}

SectionLog::~SectionLog() { close(fd_); }

void SectionLog::append(const Section& section) {
  std::ostringstream line;
  line << section.token << ' ' << section.owner << ' ' << section.start_ns << ' ' << section.end_ns << ' '
       << (section.write_accepted ? 1 : 0) << ' ' << section.release_status << '\n';
  const std::string text = line.str();
  if (write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error(std::string("appending a section: ") + std::strerror(errno));
  }
}

std::vector<Section> SectionLog::read(const std::string& path) {
  std::vector<Section> sections;
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    Section section;
    int accepted = 0;
    if (!(fields >> section.token >> section.owner >> section.start_ns >> section.end_ns >> accepted >>
          section.release_status)) {
      throw std::runtime_error("malformed section line in " + path + ": " + line);
    }
    section.write_accepted = accepted != 0;
    sections.push_back(section);
  }
  return sections;
}

Handoffs count_handoffs(std::vector<Section> sections, const std::string& owner) {
  std::sort(sections.begin(), sections.end(),
            [](const Section& a, const Section& b) { return a.start_ns < b.start_ns; });
  Handoffs handoffs;
  for (std::size_t i = 1; i < sections.size(); ++i) {
    const bool was_owner = sections[i - 1].owner == owner;
    const bool is_owner = sections[i].owner == owner;
    handoffs.from_owner += was_owner && !is_owner;
    handoffs.to_owner += !was_owner && is_owner;
  }
  return handoffs;
}

}  // namespace dlock_test
