#include "port_claims.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace dlock_test {
namespace {

std::mutex claims_mutex;
std::map<int, int> claim_files;  // port -> the open, locked file claiming it

std::string claims_directory() {
  const char* tmp = std::getenv("TMPDIR");
  const std::string directory = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/dlock-test-ports";
  if (mkdir(directory.c_str(), 0777) == 0) chmod(directory.c_str(), 01777);  // past the umask: any user's tests
  return directory;
}

bool nothing_bound_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  const bool free = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return free;
}

}  // namespace

bool claim_port(int port) {
  if (port < kLowestClaimedPort || port > kHighestClaimedPort) return false;
  std::lock_guard<std::mutex> guard(claims_mutex);
  if (claim_files.count(port) != 0) return false;
  static const std::string directory = claims_directory();
  const std::string path = directory + "/" + std::to_string(port);
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  // The lock goes with the process: a test that crashes leaves no claim behind.
  if (flock(fd, LOCK_EX | LOCK_NB) != 0 || !nothing_bound_to(port)) {
    close(fd);
    return false;
  }
  claim_files.emplace(port, fd);
  return true;
}

void release_port(int port) {
  std::lock_guard<std::mutex> guard(claims_mutex);
  const auto found = claim_files.find(port);
  if (found == claim_files.end()) return;
  close(found->second);
  claim_files.erase(found);
}

}  // namespace dlock_test
