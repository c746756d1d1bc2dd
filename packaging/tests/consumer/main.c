/* A program built against an installed dlock: it links and loads the library. */
#include <dlock.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *version = dlock_version();
  printf("dlock %s\n", version);
  return argc == 2 && strcmp(argv[1], version) == 0 ? 0 : 1;
}
