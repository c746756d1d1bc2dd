package io.dlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL server (Debian's postgresql-15, or the binaries in $DLOCK_TEST_PG_BINDIR) on a
 * free loopback port, started before a test class and shut down after it, with the settings of
 * the C++ and Python tests' servers (tests/support/pg_server.cpp, postgres_server.py). PostgreSQL
 * refuses to run as root: as root, initdb and postgres run as the system user dlockpg through
 * setpriv. {@code @RegisterExtension static final PostgresServer postgres = new PostgresServer();}
 */
public final class PostgresServer extends ServerExtension {
  static final String DEBIAN_BINDIR = "/usr/lib/postgresql/15/bin";
  static final String SYSTEM_USER = "dlockpg";
  static final String SUPERUSER = "postgres";

  /** Where initdb, postgres and psql are, or null when this machine has no PostgreSQL server. */
  static String bindir() {
    String configured = System.getenv("DLOCK_TEST_PG_BINDIR");
    String found = configured != null && !configured.isEmpty() ? configured : DEBIAN_BINDIR;
    return Files.isExecutable(Path.of(found, "postgres")) ? found : null;
  }

  private static boolean asRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static List<String> asSystemUser(String... argv) {
    List<String> command = new ArrayList<>();
    if (asRoot()) {
      command.addAll(List.of("setpriv", "--reuid=" + SYSTEM_USER, "--regid=" + SYSTEM_USER, "--clear-groups"));
    }
    command.addAll(List.of(argv));
    return command;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String bin = bindir();
    if (bin == null) {
      throw new IOException("no PostgreSQL server: " + DEBIAN_BINDIR + "/postgres (Debian's postgresql-15) is missing");
    }
    dir = Files.createTempDirectory("dlock-pg");
    if (asRoot()) {
      // A no-op when the user exists; the chown below fails when it could not be made.
      new ProcessBuilder("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      UserPrincipal user = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(SYSTEM_USER);
      Files.setOwner(dir, user);
    }
    String data = dir.resolve("data").toString();
    Process initdb = new ProcessBuilder(asSystemUser(bin + "/initdb", "-D", data, "--auth=trust", "-U", SUPERUSER,
            "-E", "UTF8", "--locale=C", "--no-sync"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("initdb.log").toFile()).start();
    if (initdb.waitFor() != 0) {
      throw new IOException("initdb failed: " + Files.readString(dir.resolve("initdb.log")));
    }
    port = RedisServer.freePort();
    // fsync off: the tests crash servers, never the machine.
    process = new ProcessBuilder(asSystemUser(bin + "/postgres", "-D", data, "-p", String.valueOf(port), "-k",
            dir.toString(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"))
        .redirectErrorStream(true).redirectOutput(dir.resolve("postgres.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && process.isAlive()) {
      if (psql("SELECT 1").exitCode() == 0) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IOException("PostgreSQL on 127.0.0.1:" + port + " did not start: "
        + Files.readString(dir.resolve("postgres.log")));
  }

  @Override
  protected void end(Process running) throws IOException, InterruptedException {
    // SIGQUIT: PostgreSQL's immediate shutdown, which ends its backends too (Java's destroy()
    // sends SIGTERM, which waits for the clients).
    new ProcessBuilder("kill", "-QUIT", String.valueOf(running.pid())).start().waitFor();
    TestServers.awaitEnd(running);
  }

  public String url() {
    return "postgresql://" + SUPERUSER + "@127.0.0.1:" + port + "/postgres";
  }

  /** The answer to {@code sql} through psql (never through dlock), rows one a line. */
  public String query(String sql) throws IOException, InterruptedException {
    Answer answer = psql(sql);
    if (answer.exitCode() != 0) {
      throw new IOException("psql on port " + port + ": " + sql + ": " + answer.output());
    }
    return answer.output().strip();
  }

  private record Answer(int exitCode, String output) {}

  private Answer psql(String sql) throws IOException, InterruptedException {
    Process run = new ProcessBuilder(bindir() + "/psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h",
            "127.0.0.1", "-p", String.valueOf(port), "-U", SUPERUSER, "-d", "postgres", "-c", sql)
        .redirectErrorStream(true).start();
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Answer(run.waitFor(), output);
  }
}
