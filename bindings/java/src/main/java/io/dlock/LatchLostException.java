package io.dlock;

/**
 * A {@link DCountDownLatch#await()} saw a count above zero, and then the
 * latch's key vanished without a count-down to zero (a Redis restart without
 * persistence, or a failover, lost it): the latch is not open, its count is
 * unknown. A {@link LockLostException}, so a handler of losses handles it too.
 */
public final class LatchLostException extends LockLostException {
  private static final long serialVersionUID = 1L;

  LatchLostException(String message) {
    super(message);
  }
}
