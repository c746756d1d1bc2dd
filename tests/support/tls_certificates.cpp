#include "tls_certificates.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace dlock_test {
namespace {

constexpr const char* kNewKey = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";

}  // namespace

TlsCertificates::TlsCertificates() {
  make_ca("ca");
  make_ca("other-ca");
  make_signed("server", "/CN=localhost",
              "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  make_signed("client", "/CN=dlock-test-client", "extendedKeyUsage=clientAuth\n");
}

void TlsCertificates::run(const std::string& arguments) const {
  const std::string log = dir_.file("openssl.log");
  const std::string command = "openssl " + arguments + " >>" + log + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("'" + command + "' failed; see " + log);
  }
}

void TlsCertificates::make_ca(const std::string& name) const {
  run("req -x509 " + std::string(kNewKey) + " -days 2 -subj /CN=dlock-test-" + name + " -keyout " +
      dir_.file(name + ".key") + " -out " + dir_.file(name + ".crt"));
}

void TlsCertificates::make_signed(const std::string& name, const std::string& subject,
                                  const std::string& extensions) const {
  const std::string extensions_file = dir_.file(name + ".ext");
  std::ofstream(extensions_file) << extensions;
  run("req " + std::string(kNewKey) + " -subj " + subject + " -keyout " + dir_.file(name + ".key") +
      " -out " + dir_.file(name + ".csr"));
  run("x509 -req -days 2 -in " + dir_.file(name + ".csr") + " -CA " + ca() + " -CAkey " +
      dir_.file("ca.key") + " -CAcreateserial -extfile " + extensions_file + " -out " +
      dir_.file(name + ".crt"));
}

}  // namespace dlock_test
