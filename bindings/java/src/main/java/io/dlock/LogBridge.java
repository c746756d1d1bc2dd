package io.dlock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The core's log records, to the {@link System.Logger} named {@value #LOGGER_NAME}
 * (by default java.util.logging's logger of that name). Installed once, when the
 * first {@link DLockClient} class use loads the native library. The core calls
 * {@link #log} on its own threads (watchdog, subscriber) and on threads inside
 * dlock calls; the logger's handlers must return quickly there and must not wait
 * on dlock.
 */
final class LogBridge extends NativeLogHandler {
  static final String LOGGER_NAME = "io.dlock";

  /** Kept for the life of the process: the native side holds a pointer to it. */
  private static final LogBridge INSTANCE = new LogBridge();

  static {
    DLockNative.setLogHandler(INSTANCE);
  }

  private final Logger logger = System.getLogger(LOGGER_NAME);

  private LogBridge() {}

  /** Makes sure the bridge is installed (class initialisation does it once). */
  static void install() {}

  static Level levelOf(int nativeLevel) {
    switch (nativeLevel) {
      case NativeLogLevel.LOG_ERROR:
        return Level.ERROR;
      case NativeLogLevel.LOG_WARN:
        return Level.WARNING;
      case NativeLogLevel.LOG_INFO:
        return Level.INFO;
      default:
        return Level.DEBUG;
    }
  }

  @Override
  public void log(int level, String message) {
    try {
      Level mapped = levelOf(level);
      if (logger.isLoggable(mapped)) {
        logger.log(mapped, message);
      }
    } catch (Throwable thrown) {
      // A failing log handler must not reach the native thread; the record is lost.
    }
  }
}
