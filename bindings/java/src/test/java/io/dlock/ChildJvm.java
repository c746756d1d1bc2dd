package io.dlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a probe's main class in a fresh JVM (so the native library loads anew, or on another Java). */
final class ChildJvm {
  record Result(int exitCode, String output) {}

  private ChildJvm() {}

  static Result runProbe(String classPath, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    return run(Path.of(System.getProperty("java.home"), "bin", "java"), classPath, jvmOptions,
        LoaderProbe.class.getName(), args);
  }

  /** Runs {@code mainClass} with the {@code java} binary given, and waits at most 60 s. */
  static Result run(Path java, String classPath, List<String> jvmOptions, String mainClass,
      String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("child JVM did not exit: " + output);
    }
    return new Result(process.exitValue(), output);
  }
}
