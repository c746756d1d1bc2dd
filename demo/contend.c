/*
 * Several processes contend for one dlock lock and increment a counter kept
 * in a plain file, with a deliberately slow read-modify-write. The file also
 * keeps the highest fencing token it has seen and refuses a lower one, as a
 * fenced resource would. At the end the counter must equal the number of
 * increments: any overlap of critical sections would lose some.
 *
 * usage: dlock_demo URL WORKERS ROUNDS FILE
 */
#include <dlock.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct resource {
  long counter;
  uint64_t highest_token;
};

static struct resource read_resource(const char *path) {
  struct resource r = {0, 0};
  FILE *f = fopen(path, "r");
  if (f != NULL) {
    if (fscanf(f, "%ld %" SCNu64, &r.counter, &r.highest_token) != 2) r.counter = -1;
    fclose(f);
  }
  return r;
}

static void write_resource(const char *path, struct resource r) {
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    perror(path);
    exit(2);
  }
  fprintf(f, "%ld %" PRIu64 "\n", r.counter, r.highest_token);
  fclose(f);
}

static void fail(const char *what, int status) {
  fprintf(stderr, "%s: %s (%s)\n", what, dlock_strerror(status), dlock_last_error());
  exit(2);
}

static int work(int id, const char *url, int rounds, const char *path) {
  dlock_client *client;
  dlock_lock *lock;
  int status = dlock_client_open(url, NULL, &client);
  if (status != DLOCK_OK) fail("dlock_client_open", status);
  status = dlock_lock_new(client, "dlock-demo", &lock);
  if (status != DLOCK_OK) fail("dlock_lock_new", status);
  srand((unsigned)getpid());

  for (int i = 0; i < rounds; ++i) {
    uint64_t token;
    status = dlock_lock_acquire(lock, -1, -1, &token);
    if (status != DLOCK_OK) fail("dlock_lock_acquire", status);

    struct resource r = read_resource(path);
    if (token <= r.highest_token) {
      fprintf(stderr, "worker %d: stale token %" PRIu64 " <= %" PRIu64 "\n", id, token, r.highest_token);
      exit(3);
    }
    usleep((useconds_t)(rand() % 3000)); /* a slow update: overlaps would lose increments */
    printf("worker %d  token %" PRIu64 "  counter %ld -> %ld\n", id, token, r.counter, r.counter + 1);
    fflush(stdout);
    r.counter += 1;
    r.highest_token = token;
    write_resource(path, r);

    status = dlock_lock_release(lock);
    if (status != DLOCK_OK) fail("dlock_lock_release", status);
  }
  dlock_lock_free(lock);
  dlock_client_close(client);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s URL WORKERS ROUNDS FILE\n", argv[0]);
    return 2;
  }
  const char *url = argv[1];
  const int workers = atoi(argv[2]);
  const int rounds = atoi(argv[3]);
  const char *path = argv[4];
  write_resource(path, (struct resource){0, 0});

  for (int id = 0; id < workers; ++id) {
    if (fork() == 0) return work(id, url, rounds, path);
  }
  int failed = 0;
  for (int id = 0; id < workers; ++id) {
    int wstatus;
    wait(&wstatus);
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) failed = 1;
  }
  const struct resource r = read_resource(path);
  const long expected = (long)workers * rounds;
  printf("\n%d processes x %d rounds: counter = %ld, expected %ld: %s\n", workers, rounds, r.counter,
         expected, r.counter == expected && !failed ? "exact, no update was lost" : "WRONG");
  return r.counter == expected && !failed ? 0 : 1;
}
