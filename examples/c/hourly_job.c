/* A job every node starts each hour (e.g. from cron) but that must run once
 * per hour. The resource it writes, here a file, keeps the highest fencing
 * token it has accepted and refuses older ones, so a node that lost its lock
 * (paused, partitioned) cannot overwrite a newer holder's work.
 * Usage: hourly_job [redis://host:port] [state-file] */
#include <dlock.h>
#include <stdio.h>
#include <time.h>

/* The fenced resource: "<hour> <token>" of the last report written. */
static int write_report(const char *path, long long hour, uint64_t token) {
  long long done_hour = -1;
  unsigned long long last_token = 0;
  FILE *state = fopen(path, "r");
  if (state) {
    if (fscanf(state, "%lld %llu", &done_hour, &last_token) != 2) done_hour = -1;
    fclose(state);
  }
  if (token < last_token) {
    fprintf(stderr, "stale token %llu refused\n", (unsigned long long)token);
    return 1;
  }
  if (done_hour == hour) {
    printf("hour %lld already reported\n", hour);
    return 0;
  }
  state = fopen(path, "w");
  if (!state) return 1;
  fprintf(state, "%lld %llu\n", hour, (unsigned long long)token);
  printf("report for hour %lld written with token %llu\n", hour, (unsigned long long)token);
  return fclose(state) != 0;
}

int main(int argc, char **argv) {
  const char *url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  const char *path = argc > 2 ? argv[2] : "hourly-report.state";
  dlock_client *client = NULL;
  dlock_lock *lock = NULL;
  uint64_t token = 0;
  int failed = 1;
  int status = dlock_client_open(url, NULL, &client);
  if (status == DLOCK_OK) status = dlock_lock_new(client, "hourly-report", &lock);
  if (status == DLOCK_OK) status = dlock_lock_acquire(lock, 0, -1, &token); /* no waiting */
  if (status == DLOCK_NOT_ACQUIRED) {
    printf("another node is writing the report\n");
    failed = 0;
  } else if (status == DLOCK_OK) {
    failed = write_report(path, (long long)(time(NULL) / 3600), token);
    status = dlock_lock_release(lock);
  }
  if (status < 0) fprintf(stderr, "dlock: %s\n", dlock_last_error());
  dlock_lock_free(lock);
  dlock_client_close(client);
  return failed || status < 0;
}
