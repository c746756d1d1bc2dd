// Opening clients: URL forms, databases, Unix sockets, credentials, unreachable servers.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "dlock.h"
#include "monotonic_clock.hpp"
#include "redis_connection.hpp"
#include "redis_fixture.hpp"
#include "redis_inspect.hpp"
#include "status_assertions.hpp"

namespace dlock_test {
namespace {

using std::chrono::milliseconds;

class Client : public RedisFixture {
 protected:
  // Whether `key` exists in database `db`, on a connection of its own.
  bool exists_in_db(int db, const std::string& key) {
    RedisConnection connection = server().connect();
    EXPECT_EQ(connection.command({"SELECT", std::to_string(db)}).str, "OK");
    return connection.command({"EXISTS", key}).integer == 1;
  }

  // Takes `name` through a client of `url`, checks it landed in `db`, releases it.
  void expect_lock_in_db(const std::string& url, int db, const std::string& name) {
    const ClientHandle client = open_client(url);
    const LockHandle lock = new_lock(client.get(), name);
    ASSERT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK));
    EXPECT_TRUE(exists_in_db(db, name)) << url;
    if (db != 0) EXPECT_FALSE(exists_in_db(0, name)) << url;
    EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
  }
};

TEST_F(Client, OpensWithDefaultOptions) {
  dlock_client* client = nullptr;
  ASSERT_TRUE(status_is(dlock_client_open(server().url().c_str(), nullptr, &client), DLOCK_OK));
  ASSERT_NE(client, nullptr);
  dlock_client_close(client);
}

TEST_F(Client, ARedisClientIsServedByTheRedisBackend) {
  const ClientHandle client = open_client(server().url());
  EXPECT_STREQ(dlock_client_backend(client.get()), "redis");
}

TEST_F(Client, UrlDatabaseIsSelected) {
  expect_lock_in_db(server().url() + "/3", 3, "in-db-3");
  expect_lock_in_db(server().url() + "/0", 0, "in-db-0");
}

TEST_F(Client, UrlQueryOptionsAreAccepted) {
  expect_lock_in_db(server().url() + "/2?command_timeout_ms=500&connect_timeout_ms=500", 2, "with-options");
}

// rediss:// is unsupported in builds without TLS; with it, a plain port fails
// the handshake (test_tls.cpp has the rest).
TEST_F(Client, TlsUrlAgainstAPlainServerIsRefused) {
  dlock_client* client = nullptr;
  const std::string url =
      "rediss://127.0.0.1:" + std::to_string(server().port()) + "?tls_verify=none&command_timeout_ms=300";
  const int status = dlock_client_open(url.c_str(), nullptr, &client);
#ifdef DLOCK_HAVE_TLS
  EXPECT_TRUE(status_is(status, DLOCK_E_CONNECTION));
#else
  EXPECT_TRUE(status_is(status, DLOCK_E_UNSUPPORTED));
#endif
  EXPECT_EQ(client, nullptr);
}

TEST(ClientWithoutServer, UnreachableServerIsAConnectionError) {
  int closed_port = 0;
  {
    RedisServer gone;
    closed_port = gone.port();
  }
  dlock_client_options options = default_options();
  options.connect_timeout_ms = 500;
  options.command_timeout_ms = 500;
  dlock_client* client = nullptr;
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(
      dlock_client_open(("redis://127.0.0.1:" + std::to_string(closed_port)).c_str(), &options, &client),
      DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - started, 3000);
  EXPECT_EQ(client, nullptr);
}

// The backends beside Redis (docs/design/backends.md) that are not in this
// build: their urls fail before any connection, naming the backend alone.
TEST(ClientWithoutServer, OtherBackendsAreUnsupportedAndNamed) {
  struct Case {
    const char* url;
    const char* backend;
  };
  const std::vector<Case> cases = {
#if !DLOCK_TEST_HAVE_ZOOKEEPER
    {"zookeeper://127.0.0.1:2181/dlock", "zookeeper"},
#endif
#if !DLOCK_TEST_HAVE_POSTGRESQL
    {"postgresql://app:s3cret@127.0.0.1:5432/app?table=locks", "postgresql"},
    {"postgres://app:s3cret@127.0.0.1/app", "postgresql"},
#endif
#if !DLOCK_TEST_HAVE_MYSQL
    {"mysql://app:s3cret@127.0.0.1:3306/app", "mysql"},
#endif
  };
  for (const auto& c : cases) {
    dlock_client* client = nullptr;
    EXPECT_TRUE(status_is(dlock_client_open(c.url, nullptr, &client), DLOCK_E_UNSUPPORTED)) << c.url;
    EXPECT_EQ(client, nullptr) << c.url;
    EXPECT_EQ(std::string(dlock_last_error()),
              std::string("url: the ") + c.backend + " backend is not in this build of dlock");
  }
  // A scheme no backend has is invalid in every build (the only case left
  // when the build has them all).
  dlock_client* client = nullptr;
  EXPECT_TRUE(
      status_is(dlock_client_open("ftp://app:s3cret@127.0.0.1:21/app", nullptr, &client), DLOCK_E_INVALID));
  EXPECT_EQ(client, nullptr);
  EXPECT_NE(std::string(dlock_last_error()).find("unknown scheme 'ftp'"), std::string::npos)
      << dlock_last_error();
  EXPECT_EQ(std::string(dlock_last_error()).find("s3cret"), std::string::npos) << dlock_last_error();
}

// dlock_schema: an SQL url's statements, made without a server; other
// backends' urls, and SQL ones in a build without them, refused naming the backend.
TEST(ClientWithoutServer, SchemaPrintsAnSqlUrlsStatementsAndNamesOtherBackends) {
  char* script = nullptr;
  const char* const sql_url = "postgresql://app:s3cret@127.0.0.1:1/app?table=jobs";
#if DLOCK_TEST_HAVE_POSTGRESQL
  ASSERT_TRUE(status_is(dlock_schema(sql_url, &script), DLOCK_OK));
  const std::string text(script);
  dlock_schema_free(script);
  EXPECT_NE(text.find("CREATE SEQUENCE IF NOT EXISTS dlock_token_seq"), std::string::npos) << text;
  EXPECT_NE(text.find("CREATE TABLE IF NOT EXISTS jobs "), std::string::npos) << text;
  EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
#else
  EXPECT_TRUE(status_is(dlock_schema(sql_url, &script), DLOCK_E_UNSUPPORTED));
  EXPECT_EQ(script, nullptr);
  EXPECT_EQ(std::string(dlock_last_error()), "url: the postgresql backend is not in this build of dlock");
#endif
  EXPECT_TRUE(status_is(dlock_schema("redis://127.0.0.1:6379", &script), DLOCK_E_UNSUPPORTED));
  EXPECT_EQ(script, nullptr);
  EXPECT_NE(std::string(dlock_last_error()).find("the redis backend has no schema"), std::string::npos)
      << dlock_last_error();
  EXPECT_TRUE(status_is(dlock_schema(nullptr, &script), DLOCK_E_INVALID));
  EXPECT_TRUE(status_is(dlock_schema(sql_url, nullptr), DLOCK_E_INVALID));
  dlock_schema_free(nullptr);
}

TEST_F(Client, ServerGoneDuringAWaitIsAConnectionErrorNotATimeout) {
  dlock_client_options options = default_options();
  options.connect_timeout_ms = 300;
  options.command_timeout_ms = 500;
  const ClientHandle client = open_client(server().url(), options);
  const LockHandle lock = new_lock(client.get(), "unreachable");
  server().kill9();
  const int64_t started = monotonic_ms();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_E_CONNECTION));
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 3000, 5000, nullptr), DLOCK_E_CONNECTION));
  EXPECT_LT(monotonic_ms() - started, 8000);
  server().restart();
  EXPECT_TRUE(status_is(dlock_lock_acquire(lock.get(), 0, 5000, nullptr), DLOCK_OK))
      << "the client did not reconnect";
  EXPECT_TRUE(status_is(dlock_lock_release(lock.get()), DLOCK_OK));
}

class UnixSocketClient : public Client {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.unix_socket = true;
    return config;
  }
};

TEST_F(UnixSocketClient, UnixUrlWithDatabase) {
  expect_lock_in_db("unix://" + server().socket_path() + "?db=2", 2, "over-unix-2");
  expect_lock_in_db("unix://" + server().socket_path(), 0, "over-unix-0");
}

TEST_F(UnixSocketClient, AUnixSocketClientIsServedByTheRedisBackend) {
  const ClientHandle client = open_client("unix://" + server().socket_path());
  EXPECT_STREQ(dlock_client_backend(client.get()), "redis");
}

class AuthenticatedClient : public Client {
 protected:
  RedisServerConfig server_config() const override {
    RedisServerConfig config;
    config.extra_lines = {"requirepass admin-secret", "user alice on >alice-secret ~* &* +@all",
                          "user bob on >b64/pa?ss+w=rd ~* &* +@all"};
    config.admin_password = "admin-secret";
    return config;
  }

  std::string url_with(const std::string& credentials) {
    return "redis://" + credentials + "@127.0.0.1:" + std::to_string(server().port());
  }
};

TEST_F(AuthenticatedClient, AclUserAndDatabase) {
  expect_lock_in_db(url_with("alice:alice-secret") + "/1", 1, "as-alice");
}

TEST_F(AuthenticatedClient, PasswordWithSlashAndQuestionMarkNeedsNoEscaping) {
  expect_lock_in_db(url_with("bob:b64/pa?ss+w=rd") + "/3?pool_size=2", 3, "as-bob");
}

TEST_F(AuthenticatedClient, PasswordOnlyAuthenticatesTheDefaultUser) {
  expect_lock_in_db(url_with(":admin-secret"), 0, "as-default");
}

TEST_F(AuthenticatedClient, WrongPasswordIsAnAuthErrorThatDoesNotLeakIt) {
  for (const std::string credentials : {"alice:wrong-secret-1", ":wrong-secret-1", "nobody:wrong-secret-1"}) {
    dlock_client* client = nullptr;
    EXPECT_TRUE(status_is(dlock_client_open(url_with(credentials).c_str(), nullptr, &client), DLOCK_E_AUTH))
        << credentials;
    EXPECT_EQ(client, nullptr);
    EXPECT_EQ(std::string(dlock_last_error()).find("wrong-secret-1"), std::string::npos)
        << "password leaked: " << dlock_last_error();
  }
}

TEST_F(AuthenticatedClient, MissingPasswordIsAnAuthError) {
  dlock_client* client = nullptr;
  EXPECT_TRUE(status_is(dlock_client_open(server().url().c_str(), nullptr, &client), DLOCK_E_AUTH));
  EXPECT_EQ(client, nullptr);
}

TEST_F(AuthenticatedClient, MalformedUrlMessageDoesNotLeakThePassword) {
  dlock_client* client = nullptr;
  const std::string url = url_with("alice:leaky-secret-2") + "/notadb";
  EXPECT_TRUE(invalid_naming(dlock_client_open(url.c_str(), nullptr, &client), "url"));
  EXPECT_EQ(std::string(dlock_last_error()).find("leaky-secret-2"), std::string::npos)
      << "password leaked: " << dlock_last_error();
}

}  // namespace
}  // namespace dlock_test
