/* Guard a critical section: only one process at a time, on any machine,
 * runs the code between acquire and release.
 * Usage: critical_section [redis://host:port] */
#include <dlock.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const char *url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  dlock_client *client = NULL;
  dlock_lock *lock = NULL;
  uint64_t token = 0;
  int status = dlock_client_open(url, NULL, &client);
  if (status == DLOCK_OK) status = dlock_lock_new(client, "inventory", &lock);
  /* Wait as long as it takes; the lease is kept alive until release. */
  if (status == DLOCK_OK) status = dlock_lock_acquire(lock, -1, -1, &token);
  if (status == DLOCK_OK) {
    printf("holding 'inventory' with fencing token %llu\n", (unsigned long long)token);
    /* ... the critical section ... */
    status = dlock_lock_release(lock);
  }
  if (status != DLOCK_OK) fprintf(stderr, "dlock: %s\n", dlock_last_error());
  dlock_lock_free(lock);
  dlock_client_close(client);
  return status == DLOCK_OK ? 0 : 1;
}
