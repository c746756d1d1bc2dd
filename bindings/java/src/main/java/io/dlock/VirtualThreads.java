package io.dlock;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells a virtual thread from a platform thread on any Java from 17 on.
 *
 * <p>A waiting platform thread blocks in the core's own wait, which wakes it
 * with one thread hand-over less than a future completed by the core's async
 * thread; a virtual thread must not block in native code (it would pin its
 * carrier), so it parks in Java. {@code Thread.isVirtual()} exists from Java 21:
 * before that there are no virtual threads.
 */
final class VirtualThreads {
  private static final MethodHandle IS_VIRTUAL = findIsVirtual();

  private VirtualThreads() {}

  static boolean isCurrentVirtual() {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
    } catch (Throwable unexpected) {
      throw new IllegalStateException("Thread.isVirtual() failed", unexpected);
    }
  }

  private static MethodHandle findIsVirtual() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException | IllegalAccessException olderJava) {
      return null;
    }
  }
}
