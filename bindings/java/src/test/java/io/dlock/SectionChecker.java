package io.dlock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Judges critical sections by their records, not by counting completions:
 * sections of different holders never overlap, and fencing tokens strictly
 * increase in the order the sections started.
 */
final class SectionChecker {
  /** One critical section: its holder, token and monotonic start/end times. */
  record Section(String holder, long token, long startNanos, long endNanos) {}

  private SectionChecker() {}

  /** The violations found; empty when the history is safe. */
  static List<String> violations(List<Section> sections) {
    List<Section> ordered = new ArrayList<>(sections);
    ordered.sort(Comparator.comparingLong(Section::startNanos));
    List<String> found = new ArrayList<>();
    for (int i = 1; i < ordered.size(); i++) {
      Section before = ordered.get(i - 1);
      Section after = ordered.get(i);
      if (after.startNanos() < before.endNanos()) {
        found.add("overlap: " + before + " and " + after);
      }
      if (after.token() <= before.token()) {
        found.add("token did not increase: " + before + " then " + after);
      }
    }
    return found;
  }
}
