package io.dlock;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libdlock_jni.so, in this order: the file named by the system property
 * {@value #PATH_PROPERTY}; {@code System.loadLibrary("dlock_jni")} (java.library.path);
 * the copy inside the jar, {@code META-INF/native/<os>-<arch>/libdlock_jni.so},
 * extracted to a temporary file.
 */
final class NativeLoader {
  static final String PATH_PROPERTY = "io.dlock.native.path";
  private static final String LIBRARY = "dlock_jni";

  private NativeLoader() {}

  static void load() {
    String path = System.getProperty(PATH_PROPERTY);
    if (path != null) {
      loadFile(path, "named by -D" + PATH_PROPERTY);
      return;
    }
    try {
      System.loadLibrary(LIBRARY);
    } catch (UnsatisfiedLinkError notOnLibraryPath) {
      loadFromJar();
    }
  }

  private static void loadFile(String path, String origin) {
    try {
      System.load(Path.of(path).toAbsolutePath().toString());
    } catch (UnsatisfiedLinkError e) {
      throw linkError("cannot load " + path + " (" + origin + "): " + e.getMessage(), e);
    }
  }

  private static void loadFromJar() {
    String resource = "META-INF/native/" + platform() + "/" + System.mapLibraryName(LIBRARY);
    try (InputStream in = NativeLoader.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw linkError(resource + " is not in the jar (no native library for "
            + platform() + ") and " + LIBRARY + " is not on java.library.path; set -D"
            + PATH_PROPERTY + "=/path/to/" + System.mapLibraryName(LIBRARY), null);
      }
      Path copy = Files.createTempFile("libdlock_jni", ".so");
      try {
        Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        loadFile(copy.toString(), "extracted from " + resource);
      } finally {
        // The loaded mapping outlives the file, so nothing is left in the temp dir.
        Files.deleteIfExists(copy);
      }
    } catch (IOException e) {
      throw linkError("cannot extract " + resource + " to a temporary file: " + e, e);
    }
  }

  /** "linux-x86_64" and the like, as the jar's resource directories are named. */
  static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT).replace(" ", "");
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    if (arch.equals("amd64")) {
      arch = "x86_64";
    }
    return os + "-" + arch;
  }

  private static UnsatisfiedLinkError linkError(String message, Throwable cause) {
    UnsatisfiedLinkError error = new UnsatisfiedLinkError("dlock: " + message);
    error.initCause(cause);
    return error;
  }
}
