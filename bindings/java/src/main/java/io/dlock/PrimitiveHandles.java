package io.dlock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A client's semaphores and latches, one object per kind and name, freed when
 * the client closes (after every call in flight has returned).
 */
final class PrimitiveHandles {
  /** An object and how to free its native handle. */
  private static final class Entry {
    final Object value;
    final Runnable free;

    Entry(Object value, Runnable free) {
      this.value = value;
      this.free = free;
    }
  }

  private final Map<String, Entry> handles = new ConcurrentHashMap<>();

  /** The object of {@code kind} named {@code name}, made by {@code make} once. */
  @SuppressWarnings("unchecked")
  <T> T get(String kind, String name, Function<String, T> make, Consumer<T> free) {
    return (T) handles.computeIfAbsent(kind + ":" + name, key -> {
      T value = make.apply(name);
      return new Entry(value, () -> free.accept(value));
    }).value;
  }

  void freeAll() {
    handles.values().forEach(entry -> entry.free.run());
  }
}
