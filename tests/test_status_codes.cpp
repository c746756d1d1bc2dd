// Status values are part of the ABI: appended, never renumbered.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <thread>

#include "dlock.h"

namespace {

TEST(StatusCodes, ValuesArePinned) {
  EXPECT_EQ(DLOCK_OK, 0);
  EXPECT_EQ(DLOCK_NOT_ACQUIRED, 1);
  EXPECT_EQ(DLOCK_E_INVALID, -1);
  EXPECT_EQ(DLOCK_E_CONNECTION, -2);
  EXPECT_EQ(DLOCK_E_NOT_OWNER, -3);
  EXPECT_EQ(DLOCK_E_LOST, -4);
  EXPECT_EQ(DLOCK_E_PROTOCOL, -5);
  EXPECT_EQ(DLOCK_E_AUTH, -6);
  EXPECT_EQ(DLOCK_E_INTERRUPTED, -7);
  EXPECT_EQ(DLOCK_E_CLOSED, -8);
  EXPECT_EQ(DLOCK_E_NOMEM, -9);
  EXPECT_EQ(DLOCK_E_UNSUPPORTED, -10);
  EXPECT_EQ(DLOCK_E_INTERNAL, -11);
  EXPECT_EQ(DLOCK_NAME_MAX, 1024);
}

// Every `#define DLOCK_<status> <value>` line of the header, read at test time,
// so a status added to dlock.h without a text in dlock_strerror fails here.
std::map<std::string, int> header_statuses() {
  std::ifstream header(DLOCK_HEADER_PATH);
  EXPECT_TRUE(header) << "cannot read " << DLOCK_HEADER_PATH;
  const std::regex status_line(R"(#define DLOCK_(OK|NOT_ACQUIRED|E_[A-Z_]+) \(?(-?[0-9]+)\)?)");
  std::map<std::string, int> statuses;
  std::smatch match;
  for (std::string line; std::getline(header, line);) {
    if (std::regex_match(line, match, status_line)) statuses[match[1]] = std::stoi(match[2]);
  }
  return statuses;
}

TEST(StatusCodes, TheHeaderIsParsed) {
  const auto statuses = header_statuses();
  EXPECT_EQ(statuses.at("OK"), DLOCK_OK);
  EXPECT_EQ(statuses.at("NOT_ACQUIRED"), DLOCK_NOT_ACQUIRED);
  EXPECT_EQ(statuses.at("E_INVALID"), DLOCK_E_INVALID);
  EXPECT_EQ(statuses.at("E_INTERNAL"), DLOCK_E_INTERNAL);
}

TEST(StatusCodes, TheStatusListNamesEveryStatusOfTheHeader) {
  std::map<std::string, int> listed;
#define DLOCK_TEST_LISTED(name) listed[#name] = DLOCK_##name;
  DLOCK_STATUS_LIST(DLOCK_TEST_LISTED)
#undef DLOCK_TEST_LISTED
  EXPECT_EQ(listed, header_statuses()) << "DLOCK_STATUS_LIST and the header's #defines disagree";
}

TEST(StatusCodes, EveryStatusOfTheHeaderHasItsOwnText) {
  const auto statuses = header_statuses();
  std::map<std::string, std::string> owner_of_text;
  for (const auto& [name, status] : statuses) {
    const char* text = dlock_strerror(status);
    ASSERT_NE(text, nullptr) << name;
    EXPECT_GT(std::strlen(text), 0u) << name;
    EXPECT_STRNE(text, "unknown status") << "DLOCK_" << name << " has no text in dlock_strerror";
    const auto [first, inserted] = owner_of_text.emplace(text, name);
    EXPECT_TRUE(inserted) << "DLOCK_" << name << " and DLOCK_" << first->second << " share the text \""
                          << text << "\"";
  }
}

TEST(StatusCodes, UnknownStatusHasText) {
  for (int status : {2, 42, -12, -1000}) {
    const char* text = dlock_strerror(status);
    ASSERT_NE(text, nullptr);
    EXPECT_STREQ(text, "unknown status") << status;
  }
}

TEST(Library, VersionIsSemantic) {
  ASSERT_NE(dlock_version(), nullptr);
  EXPECT_TRUE(std::regex_match(dlock_version(), std::regex(R"(\d+\.\d+\.\d+)"))) << dlock_version();
}

TEST(Library, VersionMacrosMatchTheRuntimeVersion) {
  const std::string macros = std::to_string(DLOCK_VERSION_MAJOR) + "." + std::to_string(DLOCK_VERSION_MINOR) +
                             "." + std::to_string(DLOCK_VERSION_PATCH);
  EXPECT_EQ(macros, DLOCK_VERSION_STRING);
  EXPECT_STREQ(dlock_version(), DLOCK_VERSION_STRING);
}

TEST(Library, LastErrorIsNeverNull) {
  ASSERT_NE(dlock_last_error(), nullptr);
  std::thread([] { EXPECT_NE(dlock_last_error(), nullptr); }).join();
}

TEST(Library, LastErrorIsPerThread) {
  ASSERT_EQ(dlock_cancel_trigger(nullptr), DLOCK_E_INVALID);
  const std::string mine = dlock_last_error();
  EXPECT_FALSE(mine.empty());
  std::thread([] { EXPECT_STREQ(dlock_last_error(), ""); }).join();
  EXPECT_EQ(dlock_last_error(), mine);
}

TEST(Library, ThreadOwnersAreStableDistinctAndMarked) {
  const uint64_t mine = dlock_thread_owner();
  EXPECT_EQ(mine, dlock_thread_owner());
  EXPECT_NE(mine & (uint64_t{1} << 63), 0u) << "default owner ids have bit 63 set";
  uint64_t other = 0;
  std::thread([&] { other = dlock_thread_owner(); }).join();
  EXPECT_NE(other, mine);
  uint64_t later = 0;
  std::thread([&] { later = dlock_thread_owner(); }).join();
  EXPECT_NE(later, other) << "owner ids are not reused when threads end";
}

}  // namespace
