package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The binding's statuses agree with include/dlock.h, the one place the codes are defined. */
class StatusTableTest {
  private static final Pattern STATUS_LINE =
      Pattern.compile("^#define DLOCK_(OK|NOT_ACQUIRED|E_[A-Z_]+) \\(?(-?\\d+)\\)?$", Pattern.MULTILINE);
  /** Failures Java reports with its own exception instead of a DLockException. */
  private static final Map<String, Class<? extends RuntimeException>> JDK_EXCEPTIONS =
      Map.of("E_CLOSED", IllegalStateException.class, "E_NOT_OWNER", IllegalMonitorStateException.class);

  /** Name without the DLOCK_ prefix -> value, in the header's order. */
  private static Map<String, Integer> headerStatuses() throws IOException {
    String header = Files.readString(Path.of(System.getProperty("dlock.header")));
    Map<String, Integer> statuses = new LinkedHashMap<>();
    Matcher line = STATUS_LINE.matcher(header);
    while (line.find()) {
      statuses.put(line.group(1), Integer.parseInt(line.group(2)));
    }
    return statuses;
  }

  private static Map<String, Integer> errors() throws IOException {
    Map<String, Integer> errors = headerStatuses();
    errors.keySet().removeAll(Set.of("OK", "NOT_ACQUIRED"));
    return errors;
  }

  @Test
  void theHeaderIsParsed() throws IOException {
    Map<String, Integer> statuses = headerStatuses();
    assertEquals(0, statuses.get("OK"));
    assertEquals(1, statuses.get("NOT_ACQUIRED"));
    assertEquals(-1, statuses.get("E_INVALID"));
    assertEquals(-11, statuses.get("E_INTERNAL"));
  }

  @Test
  void nativeStatusHoldsExactlyTheHeaderStatuses() throws Exception {
    Map<String, Integer> constants = new TreeMap<>();
    for (Field field : NativeStatus.class.getDeclaredFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
        constants.put(field.getName(), field.getInt(null));
      }
    }
    assertEquals(new TreeMap<>(headerStatuses()), constants);
  }

  @Test
  void everyErrorBecomesItsOwnException() throws IOException {
    for (Map.Entry<String, Integer> error : errors().entrySet()) {
      String name = error.getKey();
      RuntimeException exception = NativeErrors.toException(error.getValue(), "message", false);
      if (JDK_EXCEPTIONS.containsKey(name)) {
        assertInstanceOf(JDK_EXCEPTIONS.get(name), exception, name);
      } else {
        DLockException dlock = assertInstanceOf(DLockException.class, exception, name);
        assertEquals(name, "E_" + dlock.getStatus().name(), "DLOCK_" + name + " has no DLockStatus");
      }
    }
  }

  @Test
  void everyDLockStatusIsAHeaderErrorWithTheSameValue() throws IOException {
    Map<String, Integer> errors = errors();
    for (DLockStatus status : DLockStatus.values()) {
      if (status == DLockStatus.UNKNOWN) {
        continue; // the binding's own value for a status newer than itself
      }
      Integer value = errors.get("E_" + status.name());
      assertNotEquals(null, value, status + " is not a status of dlock.h");
      assertEquals(status, DLockStatus.of(value), status + " has another value than DLOCK_E_" + status);
    }
  }
}
