/* Try to take a lock, waiting at most two seconds, and do something else
 * when another process keeps it longer.
 * Usage: try_with_timeout [redis://host:port] */
#include <dlock.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const char *url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  dlock_client *client = NULL;
  dlock_lock *lock = NULL;
  int status = dlock_client_open(url, NULL, &client);
  if (status == DLOCK_OK) status = dlock_lock_new(client, "cache-rebuild", &lock);
  if (status == DLOCK_OK) status = dlock_lock_acquire(lock, 2000, -1, NULL);
  if (status == DLOCK_OK) {
    printf("rebuilding the cache\n");
    status = dlock_lock_release(lock);
  } else if (status == DLOCK_NOT_ACQUIRED) {
    printf("someone else is rebuilding the cache; using the old one\n");
    status = DLOCK_OK;
  }
  if (status != DLOCK_OK) fprintf(stderr, "dlock: %s\n", dlock_last_error());
  dlock_lock_free(lock);
  dlock_client_close(client);
  return status == DLOCK_OK ? 0 : 1;
}
