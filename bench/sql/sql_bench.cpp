// sql_bench: dlock's lease-mode lock on PostgreSQL, through the C ABI (a
// client on postgresql://, what every binding calls) and the backend's
// LeaseLock alone, beside, in the same run on the same server, a bare libpq
// loop of the two statements a lock table needs (grant by insert-or-take-over,
// release) and pg_advisory_lock/unlock: uncontended acquire+release pairs per
// second from one connection, after a warm-up, and the ratios; then the
// contended hand-off between processes (bench/core/handoff_harness): dlock's
// waiters woken by the release's NOTIFY beside pg_advisory_lock's, which the
// server itself wakes, p50/p99. Also dlock's client on ShedLock's table
// (?table=shedlock) beside ShedLock 5.16's own JdbcTemplateLockProvider
// (usingDbTime, one connection), run in a JVM on the same server in the same
// run (tests/interop/shedlock_jdbc's ShedLockLoop, built with mvn; skipped,
// saying why, without mvn and java). It starts its own PostgreSQL 15 on
// loopback (tests/support/pg_server).
//
//   sql_bench [--run-ms MS]
#include <dlock.h>
#include <libpq-fe.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "backends/sql/lease_dialect.hpp"
#include "backends/sql/lease_lock.hpp"
#include "backends/sql/sql_connection.hpp"
#include "backends/sql/sql_schema.hpp"
#include "handoff_harness.hpp"
#include "pairs_rate.hpp"
#include "percentile.hpp"
#include "pg_server.hpp"
#include "reference_loop.hpp"
#include "report.hpp"
#include "shedlock_jdbc_build.hpp"
#include "temp_dir.hpp"

namespace dlock_sql_bench {
namespace {

using dlock_bench::ContenderFactory;
using dlock_bench::fixed;
using dlock_bench::Grant;
using dlock_bench::grouped;
using dlock_bench::HandoffAnalysis;
using dlock_bench::pairs_per_second;
using dlock_bench::Report;
using dlock_bench::Verdict;

constexpr int warmup_ms = 1000;
constexpr int kRounds = 5;
constexpr const char* kOwner = "6f1c2a8e-0000-4000-8000-0000000000be:1";
constexpr int kHandoffWorkers = 4;
constexpr int32_t kGrantsPerRun = 300;

// A bare libpq session: what a team writes by hand, prepared statements with
// text parameters, nothing else.
class BareSession {
 public:
  explicit BareSession(const std::string& url) : connection_(PQconnectdb(url.c_str())) {
    if (PQstatus(connection_) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(connection_));
  }
  ~BareSession() { PQfinish(connection_); }
  BareSession(const BareSession&) = delete;
  BareSession& operator=(const BareSession&) = delete;

  void prepare(const char* name, const char* statement) {
    PGresult* result = PQprepare(connection_, name, statement, 0, nullptr);
    check(result, name);
  }
  // The first row's first value ("" when none).
  std::string run(const char* name, std::initializer_list<const char*> params) {
    const std::vector<const char*> values(params);
    PGresult* result = PQexecPrepared(connection_, name, static_cast<int>(values.size()), values.data(),
                                      nullptr, nullptr, 0);
    return check(result, name);
  }

 private:
  std::string check(PGresult* result, const char* name) {
    const ExecStatusType status = PQresultStatus(result);
    const bool ok = status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK;
    const std::string value = ok && PQntuples(result) > 0 ? PQgetvalue(result, 0, 0) : "";
    const std::string error = PQresultErrorMessage(result);
    PQclear(result);
    if (!ok) throw std::runtime_error(std::string(name) + ": " + error);
    return value;
  }

  PGconn* connection_;
};

// pg_advisory_lock on a connection of its own: the server queues the waiters
// and wakes the next at the unlock (what a team without dlock writes; no
// lease, no token).
class AdvisoryContender : public dlock_bench::Contender {
 public:
  explicit AdvisoryContender(const std::string& url) : session_(url) {
    session_.prepare("lock", "SELECT pg_advisory_lock(42)");
    session_.prepare("unlock", "SELECT pg_advisory_unlock(42)");
  }
  uint64_t acquire() override {
    session_.run("lock", {});
    return 0;
  }
  void release() override {
    if (session_.run("unlock", {}) != "t") throw std::runtime_error("pg_advisory_unlock: not held");
  }

 private:
  BareSession session_;
};

std::string milliseconds_of(int64_t ns) {
  return fixed(static_cast<double>(ns) / 1e6, 2) + " ms";
}

// dlock's client through the C ABI on `url`: a fixed lease as long as the
// bare loop's, so no watchdog runs.
class ClientPairs {
 public:
  ClientPairs(const std::string& url, const char* name) {
    if (dlock_client_open(url.c_str(), nullptr, &client_) != DLOCK_OK ||
        dlock_lock_new(client_, name, &lock_) != DLOCK_OK)
      throw std::runtime_error("dlock client on " + url + ": " + dlock_last_error());
  }
  ~ClientPairs() {
    dlock_lock_free(lock_);
    dlock_client_close(client_);
  }
  ClientPairs(const ClientPairs&) = delete;
  ClientPairs& operator=(const ClientPairs&) = delete;

  void operator()() {
    if (dlock_lock_acquire(lock_, 0, 30000, nullptr) != DLOCK_OK || dlock_lock_release(lock_) != DLOCK_OK)
      throw std::runtime_error(std::string("dlock client: ") + dlock_last_error());
  }

 private:
  dlock_client* client_ = nullptr;
  dlock_lock* lock_ = nullptr;
};

// ShedLock's JdbcTemplateLockProvider (usingDbTime, lockAtMostFor 30 s, one
// connection) locking and unlocking one name in its JVM for `run_ms` after the
// warm-up: its pairs/s, or nothing with the reason in `skipped`.
std::optional<double> shedlock_pairs_per_second(const dlock_test::PgServer& server, int run_ms,
                                                std::string& skipped) {
  const dlock_test::ShedLockJdbcBuild build =
      dlock_test::build_shedlock_jdbc(DLOCK_SHEDLOCK_JDBC_DIR, DLOCK_SHEDLOCK_JDBC_BUILD_DIR);
  if (!build.missing.empty()) {
    skipped = "needs " + build.missing + " on PATH (Maven and a JDK 17+)";
    return std::nullopt;
  }
  if (!build.built()) {
    skipped = "mvn could not build tests/interop/shedlock_jdbc: " + build.build_failure;
    return std::nullopt;
  }
  dlock_test::TempDir dir;
  const std::string jdbc =
      "jdbc:postgresql://127.0.0.1:" + std::to_string(server.port()) + "/" + dlock_test::PgServer::kDatabase;
  return dlock_bench::reference_pairs_per_second(
      build.java("ShedLockLoop", {jdbc, dlock_test::PgServer::kSuperuser, "", "bench-shedlock", "pairs",
                                  "30000", std::to_string(warmup_ms), std::to_string(run_ms)}),
      dir.file("shedlock.out"), 60000 + warmup_ms + run_ms, "ShedLock");
}

// Section 2: dlock on ShedLock's table beside ShedLock's JDBC provider.
void report_shedlock(const dlock_test::PgServer& server, double dlock_pairs, int run_ms, Report& report) {
  report.section("ShedLock's table (?table=shedlock), uncontended lock/unlock pairs/s, one connection each");
  std::string skipped;
  const std::optional<double> shedlock = shedlock_pairs_per_second(server, run_ms, skipped);
  if (!shedlock) {
    report.row({"dlock client (C ABI, table=shedlock)", grouped(static_cast<int64_t>(dlock_pairs)),
                "ShedLock skipped", "", "", Verdict::info});
    report.note("ShedLock's JDBC provider: skipped, " + skipped);
    return;
  }
  report.row({"dlock client (C ABI, table=shedlock)", grouped(static_cast<int64_t>(dlock_pairs)),
              grouped(static_cast<int64_t>(*shedlock)) + " ShedLock JdbcTemplateLockProvider",
              fixed(dlock_pairs / *shedlock, 2) + " x ShedLock", "", Verdict::info});
  report.note(
      "ShedLock = shedlock-provider-jdbc-template 5.16.0 with usingDbTime(), lockAtMostFor 30 s, Spring "
      "JDBC 6.1 on one pgjdbc 42.7 connection (SingleConnectionDataSource), lock then unlock, in its own JVM "
      "after " +
      std::to_string(warmup_ms) + " ms warm-up, for " + std::to_string(run_ms) +
      " ms after the dlock loops. dlock = the C ABI client on the same table, in the slices "
      "above, with a fixed 30 s lease: ShedLock's grant statement plus a token from the sequence, and its "
      "unlock.");
}

// Section 3: dlock's and the advisory lock's hand-offs between processes,
// ABBA, each release paired with the next grant to a process already waiting.
void report_handoffs(const std::string& url, Report& report) {
  std::vector<std::vector<Grant>> runs;  // kept for the analyses' pointers
  HandoffAnalysis dlock;
  HandoffAnalysis advisory;
  for (const bool run_advisory : {false, true, true, false}) {
    const ContenderFactory make = [&](int) -> std::unique_ptr<dlock_bench::Contender> {
      if (run_advisory) return std::make_unique<AdvisoryContender>(url);
      return std::make_unique<dlock_bench::LockContender>(url, "bench-handoff");
    };
    runs.push_back(
        dlock_bench::run_handoffs({kHandoffWorkers, kGrantsPerRun, make,
                                   run_advisory ? "advisory hand-off" : "dlock hand-off", nullptr}));
    (run_advisory ? advisory : dlock).add(runs.back());
  }
  report.section("Contended hand-off, " + std::to_string(kHandoffWorkers) +
                 " processes on one lock, runs of " + grouped(kGrantsPerRun) + " grants, ABBA");
  for (const double p : {50.0, 99.0}) {
    const int64_t ours = dlock_bench::percentile(dlock.handoff_ns, p);
    const int64_t theirs = dlock_bench::percentile(advisory.handoff_ns, p);
    report.row({"hand-off p" + fixed(p, 0) + " (dlock: LISTEN/NOTIFY)", milliseconds_of(ours),
                milliseconds_of(theirs) + " pg_advisory_lock",
                fixed(static_cast<double>(ours) / static_cast<double>(theirs), 2) + " x advisory", "",
                Verdict::info});
  }
  report.row({"grant order (all dlock grants)",
              grouped(dlock.token_inversions) + " token inversions, " + grouped(dlock.overlaps) + " overlaps",
              "", "", "none",
              dlock.token_inversions == 0 && dlock.overlaps == 0 ? Verdict::met : Verdict::missed});
  report.note(
      "hand-off = release call begins -> acquire returns in another process that was already waiting; " +
      grouped(static_cast<int64_t>(dlock.handoff_ns.size())) + " dlock and " +
      grouped(static_cast<int64_t>(advisory.handoff_ns.size())) +
      " advisory hand-offs; dlock's waiter is woken by the release's NOTIFY on its client's listening "
      "connection, then takes the row with one statement; the advisory lock's waiter is blocked in the "
      "server, which grants it at the unlock");
}

int run(int run_ms) {
  dlock_test::PgServer server;
  const std::string url = server.url();
  std::cout << "sql_bench: PostgreSQL 15 at " << url << "; one connection per loop, " << run_ms
            << " ms per loop in " << kRounds << " slices taking turns, after " << warmup_ms
            << " ms warm-up\n";
  const auto dialect = dlock::sql::lease_dialect(dlock::sql::SqlDialect::postgresql, "dlock_locks");
  const auto connection = dlock::sql::connect(dlock::sql::parse_sql_url(url));
  dlock::sql::ensure_schema(*connection, *dialect);

  const auto dlock_pair = [&] {
    dlock::sql::LeaseLock lock(*connection, *dialect, "bench-dlock", kOwner);
    if (!lock.try_acquire(std::chrono::seconds(30)).granted) throw std::runtime_error("dlock: not granted");
    lock.release();
  };

  ClientPairs client_pair(url, "bench-client");
  ClientPairs shedlock_client_pair(url + "?table=shedlock", "bench-client");

  BareSession bare(url);
  bare.prepare(
      "grant",
      "INSERT INTO dlock_locks AS l (name, owner, lease_until, token)"
      " VALUES ($1::bytea, $2, clock_timestamp() + interval '30 seconds', nextval('dlock_token_seq'))"
      " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until,"
      " token = EXCLUDED.token WHERE l.lease_until <= clock_timestamp() RETURNING token");
  bare.prepare("release",
               "UPDATE dlock_locks SET lease_until = clock_timestamp()"
               " WHERE name = $1::bytea AND owner = $2 AND token = $3::bigint");
  bare.prepare("release_notify",
               "WITH r AS (UPDATE dlock_locks SET lease_until = clock_timestamp()"
               " WHERE name = $1::bytea AND owner = $2 AND token = $3::bigint RETURNING 1)"
               " SELECT pg_notify('dlock_bench', '') FROM r");
  // The bare loop, releasing with `release_statement`.
  const auto bare_pair = [&](const char* name, const char* release_statement) {
    const std::string token = bare.run("grant", {name, kOwner});
    if (token.empty()) throw std::runtime_error("bare loop: not granted");
    bare.run(release_statement, {name, kOwner, token.c_str()});
  };

  BareSession advisory(url);
  advisory.prepare("lock", "SELECT pg_advisory_lock(42)");
  advisory.prepare("unlock", "SELECT pg_advisory_unlock(42)");
  const auto advisory_pair = [&] {
    advisory.run("lock", {});
    if (advisory.run("unlock", {}) != "t") throw std::runtime_error("pg_advisory_unlock: not held");
  };

  // The loops take turns, a slice each per round, so a change in the
  // machine's load falls on all alike; each figure is the mean of its slices.
  double client_pairs = 0;
  double shedlock_client_pairs = 0;
  double dlock_pairs = 0;
  double bare_pairs = 0;
  double notify_pairs = 0;
  double advisory_pairs = 0;
  for (int round = 0; round < kRounds; ++round) {
    const int warmup = round == 0 ? warmup_ms : warmup_ms / 10;
    client_pairs += pairs_per_second([&] { client_pair(); }, warmup, run_ms / kRounds) / kRounds;
    shedlock_client_pairs +=
        pairs_per_second([&] { shedlock_client_pair(); }, warmup, run_ms / kRounds) / kRounds;
    dlock_pairs += pairs_per_second(dlock_pair, warmup, run_ms / kRounds) / kRounds;
    bare_pairs +=
        pairs_per_second([&] { bare_pair("bench-bare", "release"); }, warmup, run_ms / kRounds) / kRounds;
    notify_pairs +=
        pairs_per_second([&] { bare_pair("bench-notify", "release_notify"); }, warmup, run_ms / kRounds) /
        kRounds;
    advisory_pairs += pairs_per_second(advisory_pair, warmup, run_ms / kRounds) / kRounds;
  }

  Report report;
  report.section("Uncontended acquire+release pairs/s, one connection each, same server, same run");
  report.row({"dlock client (C ABI, postgresql://)", grouped(static_cast<int64_t>(client_pairs)),
              grouped(static_cast<int64_t>(bare_pairs)) + " bare libpq loop",
              fixed(client_pairs / bare_pairs, 2) + " x bare", "", Verdict::info});
  report.row({"dlock client vs advisory lock", grouped(static_cast<int64_t>(client_pairs)),
              grouped(static_cast<int64_t>(advisory_pairs)) + " pg_advisory_lock",
              fixed(client_pairs / advisory_pairs, 2) + " x advisory", "", Verdict::info});
  report.row({"dlock lease lock (LeaseLock)", grouped(static_cast<int64_t>(dlock_pairs)),
              grouped(static_cast<int64_t>(bare_pairs)) + " bare libpq loop",
              fixed(dlock_pairs / bare_pairs, 2) + " x bare", "", Verdict::info});
  report.row({"the bare loop, release with NOTIFY", grouped(static_cast<int64_t>(notify_pairs)),
              grouped(static_cast<int64_t>(bare_pairs)) + " bare libpq loop",
              fixed(notify_pairs / bare_pairs, 2) + " x bare", "", Verdict::info});
  report.row({"dlock lease lock vs advisory lock", grouped(static_cast<int64_t>(dlock_pairs)),
              grouped(static_cast<int64_t>(advisory_pairs)) + " pg_advisory_lock",
              fixed(dlock_pairs / advisory_pairs, 2) + " x advisory", "", Verdict::info});
  report.note(
      "bare loop = the grant (insert or take over an ended lease, token from the sequence) and release "
      "statements as prepared libpq calls, without dlock's refused-holder branch, timeouts or error "
      "sorting; the NOTIFY row is the bare loop whose release also sends pg_notify, as dlock's does (what "
      "waking waiters costs); pg_advisory_lock = lock/unlock on one session (no lease, no token, gone with "
      "the "
      "connection). Absolute figures vary ~2x between runs on shared machines; compare the ratios.");
  report_shedlock(server, shedlock_client_pairs, run_ms, report);
  report_handoffs(url, report);
  report.print(std::cout);
  return 0;
}

}  // namespace
}  // namespace dlock_sql_bench

int main(int argc, char** argv) {
  int run_ms = 3000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--run-ms" && i + 1 < argc) {
      run_ms = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: sql_bench [--run-ms MS]\n";
      return 1;
    }
  }
  try {
    return dlock_sql_bench::run(run_ms);
  } catch (const std::exception& error) {
    std::cerr << "sql_bench: " << error.what() << "\n";
    return 1;
  }
}
