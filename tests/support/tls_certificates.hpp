#pragma once

#include <string>

#include "temp_dir.hpp"

namespace dlock_test {

// Certificates made with the `openssl` command when constructed, in a
// directory of their own: a CA, a server certificate it signed for
// 127.0.0.1 and localhost, a client certificate it signed, and a second CA
// that signed nothing here (for "wrong CA" cases). EC P-256 keys, PEM files.
class TlsCertificates {
 public:
  TlsCertificates();  // throws std::runtime_error when openssl fails

  std::string ca() const { return dir_.file("ca.crt"); }
  std::string server_cert() const { return dir_.file("server.crt"); }
  std::string server_key() const { return dir_.file("server.key"); }
  std::string client_cert() const { return dir_.file("client.crt"); }
  std::string client_key() const { return dir_.file("client.key"); }
  std::string other_ca() const { return dir_.file("other-ca.crt"); }

 private:
  void run(const std::string& arguments) const;
  void make_ca(const std::string& name) const;
  void make_signed(const std::string& name, const std::string& subject, const std::string& extensions) const;

  TempDir dir_;
};

}  // namespace dlock_test
