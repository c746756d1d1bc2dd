package io.dlock.shedlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The job's own record of its runs, a file every runner appends lines to
 * ({@code start|end <epoch ms> <fencing token> <who>}, one O_APPEND write each,
 * so lines from several processes never mix): what a user would look at to
 * see which node ran the job, when, and whether two runs overlapped.
 */
final class JobLog {
  /** One run, from its start and end lines. */
  record Run(String who, long token, long startMs, long endMs) {}

  private final Path file;

  JobLog(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  void append(String event, long token, String who) {
    String line = event + " " + System.currentTimeMillis() + " " + token + " " + who + "\n";
    try {
      Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException("cannot append to " + file, e);
    }
  }

  /** The runs, in the order they started; a run without its end line is an error. */
  List<Run> runs() throws IOException {
    Map<Long, String[]> starts = new HashMap<>();
    List<Run> runs = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] fields = line.split(" ");
      long token = Long.parseLong(fields[2]);
      if (fields[0].equals("start")) {
        starts.put(token, fields);
      } else {
        String[] start = starts.remove(token);
        if (start == null) {
          throw new AssertionError("an end without a start: " + line);
        }
        runs.add(new Run(fields[3], token, Long.parseLong(start[1]), Long.parseLong(fields[1])));
      }
    }
    if (!starts.isEmpty()) {
      throw new AssertionError("runs that never ended: tokens " + starts.keySet());
    }
    runs.sort(Comparator.comparingLong(Run::startMs));
    return runs;
  }
}
