package io.dlock;

import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A client's DLocks of one kind (reentrant or fair), by name, each holding its
 * native handle only while it is in use, as dlock.h's rule for lock handles
 * says: a DLock nobody refers to and through which nothing is held is
 * collected, and a {@link Cleaner} frees its handle. Memory thus follows the
 * locks in use, not every name ever locked. DLocks are cached weakly, so a
 * name gives the same DLock as long as anyone refers to it, and a held one is
 * kept ({@link KeptWhileHeld}); either way the core counts holds per name and
 * owner, so re-entry works across DLock objects of one name.
 */
final class LockHandles {
  private static final Cleaner CLEANER = Cleaner.create();

  private final Map<String, WeakReference<DLock>> byName = new ConcurrentHashMap<>();
  /** The native halves not yet freed, for close(). */
  private final Set<DLock.Natives> live = ConcurrentHashMap.newKeySet();

  /** The DLock named {@code name} if one is in use, else null. */
  DLock inUse(String name) {
    WeakReference<DLock> cached = byName.get(name);
    return cached == null ? null : cached.get();
  }

  /**
   * The DLock named {@code name}, made by {@code make} when there is none in
   * use. The caller serialises calls (and close()).
   */
  DLock get(String name, Function<String, DLock> make) {
    DLock lock = inUse(name);
    if (lock != null) {
      return lock;
    }
    DLock made = make.apply(name);
    WeakReference<DLock> reference = new WeakReference<>(made);
    DLock.Natives natives = made.natives();
    live.add(natives);
    byName.put(name, reference);
    // The action must not refer to the DLock, or it would never become unreachable.
    CLEANER.register(made, () -> {
      byName.remove(name, reference);
      live.remove(natives);
      natives.free();
    });
    return made;
  }

  /** How many native handles are not yet freed. */
  int liveHandles() {
    return live.size();
  }

  /** Frees every handle; the client calls it once no call is in flight. */
  void freeAll() {
    live.forEach(DLock.Natives::free);
    live.clear();
    byName.clear();
  }
}
