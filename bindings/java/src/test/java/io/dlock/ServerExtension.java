package io.dlock;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A server a test class runs (ZooKeeper, PostgreSQL): started by the subclass's beforeAll into a
 * directory of its own on a loopback port, ended and its directory removed after the class,
 * whatever beforeAll got to.
 */
abstract class ServerExtension implements BeforeAllCallback, AfterAllCallback {
  protected Process process;
  protected Path dir;
  protected int port;

  /** Ends the server's process (by default SIGKILL) and reaps it. */
  protected void end(Process running) throws IOException, InterruptedException {
    running.destroyForcibly().waitFor();
  }

  @Override
  public final void afterAll(ExtensionContext context) throws Exception {
    if (process != null) {
      end(process);
      process = null;
    }
    if (dir != null) {
      TestServers.deleteTree(dir);
    }
  }
}
