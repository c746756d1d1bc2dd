package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader's order: the path property, java.library.path, the copy in the jar. */
class NativeLoaderTest {
  private static final String CLASS_PATH = System.getProperty("java.class.path");
  private static final String BUILT_LIBRARY =
      Path.of(System.getProperty("dlock.native.library")).toAbsolutePath().normalize().toString();

  @Test
  void thisMachineIsLinuxX8664() {
    assertEquals("linux-x86_64", NativeLoader.platform());
  }

  @Test
  void extractsTheBundledLibraryToADeletedTempFile() throws Exception {
    ChildJvm.Result result = ChildJvm.runProbe(CLASS_PATH, List.of());
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().matches("(?s)dlock \\d+\\.\\d+\\.\\d+\nmapped /tmp/libdlock_jni\\d+\\.so \\(deleted\\)\n"),
        result.output());
  }

  @Test
  void thePathPropertyComesFirst() throws Exception {
    ChildJvm.Result result = ChildJvm.runProbe(CLASS_PATH,
        List.of("-D" + NativeLoader.PATH_PROPERTY + "=" + BUILT_LIBRARY));
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("mapped " + BUILT_LIBRARY + "\n"), result.output());
  }

  @Test
  void thenJavaLibraryPath() throws Exception {
    String directory = Path.of(BUILT_LIBRARY).getParent().toString();
    ChildJvm.Result result = ChildJvm.runProbe(CLASS_PATH, List.of("-Djava.library.path=" + directory));
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("mapped " + BUILT_LIBRARY + "\n"), result.output());
  }

  @Test
  void aBadPathPropertyFailsNamingIt() throws Exception {
    ChildJvm.Result result = ChildJvm.runProbe(CLASS_PATH,
        List.of("-D" + NativeLoader.PATH_PROPERTY + "=/nonexistent/libdlock_jni.so"));
    assertTrue(result.exitCode() != 0, result.output());
    assertTrue(result.output().contains("UnsatisfiedLinkError: dlock: cannot load "
        + "/nonexistent/libdlock_jni.so (named by -D" + NativeLoader.PATH_PROPERTY + ")"), result.output());
  }

  @Test
  void withoutABundledLibraryTheErrorNamesTheResourceAndTheWayOut(@TempDir Path copy) throws Exception {
    Path classes = Path.of(NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path relative = classes.relativize(file);
        if (!relative.startsWith("META-INF/native")) {
          Files.copy(file, copy.resolve(relative.toString()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    ChildJvm.Result result = ChildJvm.runProbe(CLASS_PATH.replace(classes.toString(), copy.toString()), List.of());
    assertTrue(result.exitCode() != 0, result.output());
    assertTrue(result.output().contains("dlock: META-INF/native/linux-x86_64/libdlock_jni.so is not in the jar"
        + " (no native library for linux-x86_64) and dlock_jni is not on java.library.path; set -D"
        + NativeLoader.PATH_PROPERTY + "=/path/to/libdlock_jni.so"), result.output());
  }
}
