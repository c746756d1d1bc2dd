package io.dlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Run in a fresh JVM by the loader tests: loads the library, prints which file
 * it was mapped from, and with a Redis URL argument locks once.
 */
public final class LoaderProbe {
  private LoaderProbe() {}

  public static void main(String[] args) throws IOException {
    System.out.println("dlock " + DLockClient.nativeVersion());
    try (Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
      maps.filter(line -> line.contains("libdlock_jni")).findFirst()
          .ifPresent(line -> System.out.println("mapped " + line.substring(line.indexOf('/'))));
    }
    if (args.length > 0) {
      try (DLockClient client = DLockClient.connect(args[0]); LockHold hold = client.getLock("probe").acquire()) {
        System.out.println("token " + hold.fencingToken());
      }
    }
  }
}
