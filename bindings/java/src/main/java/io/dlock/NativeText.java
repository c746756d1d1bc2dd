package io.dlock;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Text on its way to the core (dlock.i's typemap for names, URLs and ids): its
 * UTF-8 bytes, checked here so that a bad argument throws in Java, naming it,
 * before any native call.
 */
final class NativeText {
  private NativeText() {}

  /**
   * The UTF-8 form of {@code text}.
   *
   * @throws NullPointerException for null
   * @throws IllegalArgumentException for a NUL (the core takes NUL-terminated
   *     text, so it would name something else) or a lone surrogate (it has no
   *     UTF-8 form; {@link String#getBytes} would silently put '?' there)
   */
  static byte[] utf8(String text, String argument) {
    Objects.requireNonNull(text, argument);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\0') {
        throw new IllegalArgumentException(argument + " must not contain a NUL character");
      }
      if (Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            argument + " must be valid Unicode text: a lone surrogate at index " + i);
      }
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
