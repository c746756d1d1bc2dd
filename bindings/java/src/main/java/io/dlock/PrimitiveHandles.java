package io.dlock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A client's semaphores and latches, one object per kind and name, freed when
 * the client closes (after every call in flight has returned).
 */
final class PrimitiveHandles {
  /** An object whose native handle the client frees when it closes. */
  interface Freeable {
    void free();
  }

  private final Map<String, Freeable> handles = new ConcurrentHashMap<>();

  /** The object of {@code kind} named {@code name}, made by {@code make} once. */
  @SuppressWarnings("unchecked")
  <T extends Freeable> T get(String kind, String name, Function<String, T> make) {
    return (T) handles.computeIfAbsent(kind + ":" + name, key -> make.apply(name));
  }

  void freeAll() {
    handles.values().forEach(Freeable::free);
  }
}
