package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar on its own: it carries a self-contained library and loads it. */
class PackagedJarIT {
  @RegisterExtension static final RedisServer redis = new RedisServer();

  private static final String LIBRARY_ENTRY = "META-INF/native/linux-x86_64/libdlock_jni.so";
  private static final Path JAR = Path.of(System.getProperty("dlock.jar"));

  @Test
  void theJarAloneLoadsItsLibraryAndLocks() throws Exception {
    String probeClasses = Path.of(LoaderProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
    ChildJvm.Result result = ChildJvm.runProbe(JAR + ":" + probeClasses, List.of(), redis.url());
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("mapped /tmp/libdlock_jni"), result.output());
    assertTrue(result.output().matches("(?s).*token \\d+\n"), result.output());
  }

  @Test
  void theLibraryExportsOnlyJniEntryPointsAndNeedsNoDlockOrHiredis(@TempDir Path dir) throws Exception {
    Path library = dir.resolve("libdlock_jni.so");
    try (JarFile jar = new JarFile(JAR.toFile()); InputStream in = jar.getInputStream(jar.getEntry(LIBRARY_ENTRY))) {
      Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
    }

    List<String> exported = Arrays.stream(run("nm", "-D", "--defined-only", library.toString()).split("\n"))
        .map(line -> line.substring(line.lastIndexOf(' ') + 1))
        .collect(Collectors.toList());
    assertTrue(exported.stream().anyMatch(symbol -> symbol.startsWith("Java_io_dlock_")), exported.toString());
    assertTrue(exported.stream().allMatch(symbol -> symbol.startsWith("Java_") || symbol.equals("JNI_OnLoad")),
        exported.toString());

    List<String> needed = Arrays.stream(run("readelf", "-d", library.toString()).split("\n"))
        .filter(line -> line.contains("(NEEDED)"))
        .collect(Collectors.toList());
    assertTrue(needed.stream().noneMatch(line -> line.contains("hiredis") || line.contains("libdlock")),
        needed.toString());
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + output);
    return output;
  }
}
