package io.dlock;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures, for each test, what java.util.logging (System.Logger's default
 * backend) gets for "io.dlock": register it with {@code @RegisterExtension}.
 */
final class LogCapture implements BeforeEachCallback, AfterEachCallback {
  private final Logger julLogger = Logger.getLogger(LogBridge.LOGGER_NAME);
  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private Level previousLevel;

  @Override
  public void beforeEach(ExtensionContext context) {
    records.clear();
    previousLevel = julLogger.getLevel();
    julLogger.setLevel(Level.ALL);
    julLogger.addHandler(handler);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    julLogger.removeHandler(handler);
    julLogger.setLevel(previousLevel);
  }

  /** Whether a record of {@code level} carries every one of {@code parts}. */
  boolean has(Level level, String... parts) {
    return records.stream().anyMatch(r -> r.getLevel().equals(level)
        && List.of(parts).stream().allMatch(part -> r.getMessage().contains(part)));
  }

  /** The messages so far, for a failure's description. */
  List<String> messages() {
    return records.stream().map(LogRecord::getMessage).toList();
  }
}
