package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What users see: hand-written classes only; nothing generated, no raw codes, no finalize(). */
class PublicApiTest {
  private static final Set<String> PUBLIC_TYPES = Set.of("DLockClient", "DLockClientBuilder", "DLock",
      "LockHold", "LockLostListener", "DLockException", "LockLostException", "LockExpiredException",
      "DLockStatus", "LockInfo",
      "DLockStats", "DMultiLock", "DRedLock", "DReadWriteLock",
      // Semaphores and the count-down latch.
      "DSemaphore", "DPermitExpirableSemaphore", "PermitLostListener", "DCountDownLatch",
      "LatchLostException",
      // Leader election.
      "DElection", "Leader", "LeadershipLostListener");

  @Test
  void onlyTheHandWrittenTypesArePublic() throws Exception {
    assertEquals(new TreeSet<>(PUBLIC_TYPES), publicTypes());
  }

  @Test
  void publicSignaturesUseOnlyPublicTypesAndNoClassHasFinalize() throws Exception {
    for (Class<?> type : packageClasses()) {
      for (Method method : type.getDeclaredMethods()) {
        assertTrue(!method.getName().equals("finalize"), type + " declares finalize()");
        if (Modifier.isPublic(type.getModifiers()) && Modifier.isPublic(method.getModifiers())) {
          assertVisible(method.getReturnType(), method);
          for (Class<?> parameter : method.getParameterTypes()) {
            assertVisible(parameter, method);
          }
        }
      }
    }
  }

  private static void assertVisible(Class<?> type, Method method) {
    assertTrue(type.isPrimitive() || Modifier.isPublic(type.getModifiers()), method + " exposes " + type);
    assertTrue(!type.getSimpleName().startsWith("SWIGTYPE") && !type.getSimpleName().startsWith("Native"),
        method + " exposes " + type);
  }

  private static Set<String> publicTypes() throws Exception {
    Set<String> names = new TreeSet<>();
    for (Class<?> type : packageClasses()) {
      if (Modifier.isPublic(type.getModifiers()) && type.getEnclosingClass() == null) {
        names.add(type.getSimpleName());
      }
    }
    return names;
  }

  private static Set<Class<?>> packageClasses() throws Exception {
    Path classes = Path.of(DLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<Class<?>> types = new HashSet<>();
    try (Stream<Path> files = Files.list(classes.resolve("io/dlock"))) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".class")) {
          types.add(Class.forName("io.dlock." + name.substring(0, name.length() - ".class".length())));
        }
      }
    }
    return types;
  }
}
