#include "sql_test_server.hpp"

#include "mariadb_server.hpp"
#include "pg_server.hpp"

namespace dlock_test {
namespace {

std::string with_options(std::string url, const std::string& options) {
  return options.empty() ? url : url + "?" + options;
}

class PgTestServer : public SqlTestServer {
 public:
  std::string url(const std::string& options) const override { return with_options(server_.url(), options); }
  std::string reader_url() override {
    server_.query(
        "CREATE ROLE dlock_reader LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO dlock_reader");
    return server_.url("dlock_reader");
  }
  std::string read_only_url(const std::string& options) override {
    server_.query(
        "CREATE ROLE dlock_replica_user LOGIN;"
        " GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO dlock_replica_user;"
        " GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO dlock_replica_user;"
        " ALTER ROLE dlock_replica_user SET default_transaction_read_only = on");
    return with_options(server_.url("dlock_replica_user"), options);
  }
  std::string query(const std::string& sql) override { return server_.query(sql); }
  void kill_session(std::uint64_t id) override { server_.terminate_backend(static_cast<int>(id)); }
  void kill9() override { server_.kill9(); }
  void restart() override { server_.restart(); }

 private:
  PgServer server_;
};

class MariaDbTestServer : public SqlTestServer {
 public:
  std::string url(const std::string& options) const override { return with_options(server_.url(), options); }
  std::string reader_url() override {
    server_.query(
        "CREATE USER dlock_reader@'%' IDENTIFIED BY 'pw'; GRANT SELECT ON dlock.* TO dlock_reader@'%'");
    return server_.url("dlock_reader", "pw");
  }
  std::string read_only_url(const std::string& options) override {
    server_.query(
        "CREATE USER dlock_replica_user@'%' IDENTIFIED BY 'pw';"
        " GRANT SELECT, INSERT, UPDATE, DELETE ON dlock.* TO dlock_replica_user@'%'; SET GLOBAL read_only = 1");
    return with_options(server_.url("dlock_replica_user", "pw"), options);
  }
  std::string query(const std::string& sql) override { return server_.query(sql); }
  void kill_session(std::uint64_t id) override { server_.kill_connection(id); }
  void kill9() override { server_.kill9(); }
  void restart() override { server_.restart(); }

 private:
  MariaDbServer server_;
};

}  // namespace

std::unique_ptr<SqlTestServer> start_sql_server(SqlServerKind kind) {
  if (kind == SqlServerKind::postgresql) return std::make_unique<PgTestServer>();
  return std::make_unique<MariaDbTestServer>();
}

const char* kind_name(SqlServerKind kind) {
  return kind == SqlServerKind::postgresql ? "postgresql" : "mariadb";
}

}  // namespace dlock_test
