/*
 * dlock: distributed, reentrant, fenced locks on Redis.
 *
 * This is the library's only public header. It is C99 and C++ compatible and
 * exposes opaque handles only. Conventions:
 *
 * - Every fallible function returns an int status: DLOCK_OK (0), the outcome
 *   DLOCK_NOT_ACQUIRED (1), or a negative DLOCK_E_* error. After an error,
 *   dlock_last_error() describes it for the calling thread.
 * - What a function hands out through an `out` pointer belongs to the caller
 *   and is freed with the matching *_free function; every *_free accepts NULL.
 * - Handles are thread-safe. Times are milliseconds.
 * - Ownership of a lock is per (client, owner). By default the owner is the
 *   calling OS thread (dlock_thread_owner()); the *_owner variants take an
 *   explicit owner id for tasks that are not OS threads (Java virtual threads,
 *   Python asyncio tasks, work handed between threads).
 *
 * Sections, by object: library and client; locks (acquire, asynchronous
 * calls, administration, listing); the fair lock; the read-write lock; the
 * semaphores; the count-down latch; MultiLock and RedLock; leader election;
 * observability.
 */
#ifndef DLOCK_H
#define DLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define DLOCK_API
#elif defined(__GNUC__)
#define DLOCK_API __attribute__((visibility("default")))
#else
#define DLOCK_API
#endif

/* ---- Version: DLOCK_VERSION_STRING is the project's one version source. ---- */

#define DLOCK_VERSION_MAJOR 0
#define DLOCK_VERSION_MINOR 1
#define DLOCK_VERSION_PATCH 0
#define DLOCK_VERSION_STRING "0.1.0"

/* ---- Status codes: values are fixed and never renumbered. ---- */

#define DLOCK_OK 0
/** A bounded wait (or a single attempt) ran out: an outcome, not an error. */
#define DLOCK_NOT_ACQUIRED 1
/** An argument is NULL, empty, too long, malformed or out of range. */
#define DLOCK_E_INVALID (-1)
/** Redis unreachable, an I/O error, or a command timeout. */
#define DLOCK_E_CONNECTION (-2)
/** The caller does not hold the lock it tried to release. */
#define DLOCK_E_NOT_OWNER (-3)
/**
 * The caller held the lock but its lease ran out or it was taken; also state a
 * semaphore or latch call relied on that vanished from Redis (see
 * dlock_semaphore_release, dlock_count_down_latch_await).
 */
#define DLOCK_E_LOST (-4)
/** Redis answered something unexpected, e.g. WRONGTYPE for the lock key. */
#define DLOCK_E_PROTOCOL (-5)
/** Redis refused the credentials, or requires some. */
#define DLOCK_E_AUTH (-6)
/** A blocking acquire was cut short by dlock_cancel_trigger(). */
#define DLOCK_E_INTERRUPTED (-7)
/** The client was closed. */
#define DLOCK_E_CLOSED (-8)
/** Memory could not be allocated. */
#define DLOCK_E_NOMEM (-9)
/** The operation is not supported by this build or this server. */
#define DLOCK_E_UNSUPPORTED (-10)
/** A defect inside the library; dlock_last_error() says where. Report it. */
#define DLOCK_E_INTERNAL (-11)

/**
 * Every status above as X(name), its name without the DLOCK_ prefix
 * (DLOCK_##name is its value): the bindings build their status tables from
 * it, and their tests check that it lists every status defined above.
 */
#define DLOCK_STATUS_LIST(X)                                                              \
  X(OK) X(NOT_ACQUIRED) X(E_INVALID) X(E_CONNECTION) X(E_NOT_OWNER) X(E_LOST) X(E_PROTOCOL) \
  X(E_AUTH) X(E_INTERRUPTED) X(E_CLOSED) X(E_NOMEM) X(E_UNSUPPORTED) X(E_INTERNAL)

/** Longest accepted lock name, in bytes. */
#define DLOCK_NAME_MAX 1024

/** Longest lease accepted, in ms (365 days); a longer wait counts as -1. */
#define DLOCK_DURATION_MAX_MS (INT64_C(365) * 24 * 3600 * 1000)

/* ---- Library ---- */

/** The library version, "MAJOR.MINOR.PATCH". Static storage. */
DLOCK_API const char *dlock_version(void);

/** Static text naming a status code ("unknown status" for other values). */
DLOCK_API const char *dlock_strerror(int status);

/**
 * A message describing the calling thread's last failing call. Never NULL
 * (empty when there was none). Valid until the thread's next dlock call.
 */
DLOCK_API const char *dlock_last_error(void);

/**
 * 1 when the calling thread's last failing call returned DLOCK_E_LOST for a
 * hold whose fixed lease (lease_ms > 0) ran out as asked: *expiry*, which
 * dlock_last_error() then names; 0 for a loss (a watchdog lease that lapsed,
 * a hold taken or deleted before its end) and for any other failure. Also
 * valid inside a dlock_done_fn for the call it reports. The status stays
 * DLOCK_E_LOST, so code that handles a loss handles an expiry too.
 */
DLOCK_API int dlock_last_error_is_expiry(void);

/**
 * The owner id the calling OS thread uses by default. Unique within the
 * process for the process's lifetime (ids are not reused when threads end).
 * Default ids have bit 63 set; explicit owner ids should leave it clear.
 */
DLOCK_API uint64_t dlock_thread_owner(void);

/* ---- Client ---- */

typedef struct dlock_client dlock_client;

/**
 * Client options. Always initialise with dlock_client_options_init(), then
 * change fields: the library reads only the first `size` bytes, so a program
 * built against an older header keeps working. Query options in the URL
 * (same names, e.g. ?command_timeout_ms=500) override these fields.
 */
typedef struct dlock_client_options {
  size_t size;                 /**< sizeof(dlock_client_options), set by _init */
  int64_t connect_timeout_ms;  /**< TCP/Unix connect timeout; default 2000 */
  int64_t command_timeout_ms;  /**< one command, retries on fresh connections
                                    included; default 3000 */
  int64_t watchdog_timeout_ms; /**< lease kept alive by the watchdog for
                                    acquires with lease_ms == -1; renewed every
                                    third of it; default 30000 */
  int32_t pool_size;           /**< most pooled command connections; default 8 */
  /* TLS, for rediss:// urls only (set with a redis:// url: DLOCK_E_INVALID).
     Strings are copied when the client opens; NULL means the default. The
     url's query options of the same names override them. */
  const char *tls_ca;     /**< CA bundle (PEM) that must have signed the
                               server's certificate; default: the system's */
  const char *tls_cert;   /**< client certificate (PEM), for servers that
                               require one (tls-auth-clients); needs tls_key */
  const char *tls_key;    /**< the client certificate's private key (PEM) */
  const char *tls_sni;    /**< server name sent (SNI) and required in the
                               server's certificate; default: the url's host */
  const char *tls_verify; /**< "full" (default): the certificate must chain to
                               tls_ca and name the server; "none": not checked
                               (encryption without authentication) */
  /* Replica sync (the url's sync_replicas= and sync_timeout_ms= override them):
     a fresh grant counts only once `WAIT sync_replicas sync_timeout_ms`
     confirms it reached that many replicas; otherwise it is undone and the
     attempt fails like a busy lock. WAIT narrows the window in which a
     failover loses a grant; it is not consensus (docs/deployments.md). */
  int32_t sync_replicas;   /**< replicas a grant must reach; default 0 (no WAIT) */
  int64_t sync_timeout_ms; /**< how long WAIT waits; default 1000; must be
                                less than command_timeout_ms when sync_replicas > 0 */
} dlock_client_options;

/** Fills `opts` with the defaults and sets opts->size. NULL is a no-op. */
DLOCK_API void dlock_client_options_init(dlock_client_options *opts);

/**
 * Opens a client. `url` is one of
 *   redis://[user[:password]@]host[:port][,host[:port]...][/db][?options]
 *   unix:///path/to/redis.sock[?db=N&options]
 *   rediss://[user[:password]@]host[:port][/db][?options]   (TLS)
 *   redis-sentinel://[user[:password]@]host[:port][,host[:port]...][/db][?options]#master
 *   rediss-sentinel://...   (Sentinel with TLS to the sentinels and the master)
 *   zookeeper://host[:port][,host[:port]...][/chroot][?options]
 *       (ZooKeeper, in Curator's layouts; docs/zookeeper.md: options
 *       session_timeout_ms, connect_timeout_ms, command_timeout_ms,
 *       auth=digest:user:password; a fixed lease_ms is DLOCK_E_INVALID there)
 *   postgresql://[user[:password]@]host[:port]/database[?options] (or postgres://)
 *   mysql://[user[:password]@]host[:port]/database[?options]
 *       (PostgreSQL, MySQL/MariaDB: a lock table; docs/sql.md: options table=,
 *       mode=lease, connect_timeout_ms, io_timeout_ms. Only in builds from
 *       source with libpq / MariaDB Connector/C: the release's wheel, jar and
 *       packages leave them out, and answer DLOCK_E_UNSUPPORTED naming the
 *       backend; so does zookeeper:// in a build without the ZooKeeper C client.)
 * Sentinel: the sentinels (default port 26379) are asked in turn for the
 * master named after '#'; the userinfo is the master's credentials, the
 * sentinels' are the query options sentinel_user= and sentinel_password=.
 * A failover moves the client to the new master by itself.
 * Cluster: the hosts of a redis:// or rediss:// url are seeds; the first that
 * answers tells whether it is a Redis Cluster (CLUSTER SHARDS), and if it is,
 * the client routes each lock to the master of its slot, follows MOVED and
 * ASK, and waits with sharded pub/sub on Redis/Valkey >= 7.
 * Query options: connect_timeout_ms, command_timeout_ms, watchdog_timeout_ms,
 * pool_size (as the fields above), db, and release_yield_ms (0-1000, default
 * 10): after a release whose wake-up reached dlock waiters, the lock is
 * theirs that long (until one of them takes it): the releasing owner and
 * newcomers, which need no wake-up, wait their turn; 0 turns it off.
 * TLS options (the tls_* fields above, or the url's tls_ca=PATH, tls_cert=PATH,
 * tls_key=PATH, tls_sni=NAME, tls_verify=full|none; paths percent-encoded)
 * apply to rediss:// only; `rediss://` returns DLOCK_E_UNSUPPORTED in builds
 * without TLS (hiredis without hiredis_ssl). `opts`
 * may be NULL for the defaults. The connection is checked (and AUTH/SELECT
 * run) before this returns. On success *out is the caller's, closed with
 * dlock_client_close().
 *
 * DLOCK_E_INVALID: NULL url/out, malformed url or option, a TLS file
 * (tls_ca, tls_cert, tls_key) that cannot be loaded.
 * DLOCK_E_CONNECTION: Redis unreachable; a TLS handshake that failed or a
 * server certificate that did not verify (the message says why).
 * DLOCK_E_AUTH: credentials refused.
 * DLOCK_E_UNSUPPORTED: rediss:// in a build without TLS; a zookeeper://,
 * postgresql://, postgres:// or mysql:// url in a build without that backend
 * (dlock_last_error() names the backend this build does not have).
 */
DLOCK_API int dlock_client_open(const char *url, const dlock_client_options *opts,
                                dlock_client **out);

/**
 * Closes a client: stops its background threads, releases the locks it still
 * holds, wakes its waiters with DLOCK_E_CLOSED, and frees it. Lock handles made
 * from it stay valid to free; other calls on them return DLOCK_E_CLOSED.
 * NULL is a no-op.
 */
DLOCK_API void dlock_client_close(dlock_client *client);

/**
 * The backend that serves the client, as its url's scheme chose it: "redis"
 * (redis://, rediss://, redis-sentinel://, rediss-sentinel://, unix://),
 * "zookeeper", "postgresql" (postgresql://, postgres://) or "mysql".
 * Static storage; NULL for NULL. No round trip.
 */
DLOCK_API const char *dlock_client_backend(const dlock_client *client);

/**
 * The statements the SQL backend of `url` runs to create what its locks use
 * when missing (the token source and the lock table, or ShedLock's table for
 * table=shedlock), in its server's flavour, one a line, each ending in ';':
 * what `dlock schema` prints, for an administrator to run when the client's
 * user may not create them. No connection is made. *script_out is
 * NUL-terminated, freed with dlock_schema_free().
 *
 * DLOCK_E_INVALID: NULL url/script_out, a malformed url or option.
 * DLOCK_E_UNSUPPORTED: a url of a backend without a schema (redis://,
 * zookeeper://, ...), or of an SQL backend not in this build; the message
 * names the backend.
 */
DLOCK_API int dlock_schema(const char *url, char **script_out);

/** Frees a script of dlock_schema(); NULL is ignored. */
DLOCK_API void dlock_schema_free(char *script);

/* ---- Cancellation ---- */

/**
 * A cancel token cuts a blocking acquire short from another thread: the
 * acquire returns DLOCK_E_INTERRUPTED within a few milliseconds. A token stays
 * triggered until reset, so a trigger that arrives before the wait starts is
 * not lost.
 */
typedef struct dlock_cancel dlock_cancel;

DLOCK_API int dlock_cancel_new(dlock_cancel **out);
/** Thread-safe. DLOCK_E_INVALID for NULL. */
DLOCK_API int dlock_cancel_trigger(dlock_cancel *cancel);
/** Clears the triggered state. DLOCK_E_INVALID for NULL. */
DLOCK_API int dlock_cancel_reset(dlock_cancel *cancel);
/** Frees a token no acquire is using any more. NULL is a no-op. */
DLOCK_API void dlock_cancel_free(dlock_cancel *cancel);

/* ---- Locks ----
 *
 * Memory: a lock handle is a small allocation (well under 1 KiB) and the
 * client keeps nothing per name beyond its handles and the holds it has (one
 * record per owner until released). A handle costs nothing once it is freed,
 * and may be freed as soon as nothing refers to it and nothing is held through
 * it (dlock_lock_holds_through gives 0): a service locking `orders:<id>` for a
 * million ids makes a handle per call, frees it after the release, and its
 * memory stays flat. Freeing a handle through which a hold is still taken
 * releases that hold (dlock_lock_free): keep the handle while it is held.
 * Handles on the same name from one client share their holds, so any handle
 * on the name re-enters or releases the owner's hold. The Python and Java
 * bindings follow this rule: an unreferenced Lock/DLock that is not held
 * gives its handle back. */

typedef struct dlock_lock dlock_lock;

/**
 * Makes a handle on the reentrant lock `name` (1 to DLOCK_NAME_MAX bytes; a
 * name containing '{' must contain a non-empty hash tag such as "job{42}",
 * and a '}' needs an earlier '{', so that every key of the lock lands in one
 * cluster slot; a name that is only a hash tag, "{x}", is refused because
 * Redisson's layout gives it the counter and channel of the lock "x"). Makes
 * no round trip.
 * Handles on the same name from one client share their holds.
 */
DLOCK_API int dlock_lock_new(dlock_client *client, const char *name, dlock_lock **out);

/**
 * Frees a handle. Holds still taken through it are released first (one round
 * trip each), so nothing keeps renewing a lock that no one can release.
 * NULL is a no-op.
 */
DLOCK_API void dlock_lock_free(dlock_lock *lock);

/**
 * *out = the number of owners whose hold on the lock was taken through this
 * handle (their outermost acquire went through it) and is still theirs, lost
 * or not: the holds dlock_lock_free would end. 0: freeing the handle touches
 * no hold and makes no round trip. No round trip.
 */
DLOCK_API int dlock_lock_holds_through(dlock_lock *lock, int *out);

/** The handle's lock name. Static for the handle's lifetime; NULL for NULL. */
DLOCK_API const char *dlock_lock_name(const dlock_lock *lock);

/**
 * Acquires the lock for the calling thread.
 *
 * wait_ms: 0 one attempt, -1 wait forever, > 0 wait at most that long.
 * lease_ms: -1 lease kept alive by the client's watchdog until release,
 *           > 0 fixed lease, never renewed.
 * token_out (may be NULL): the fencing token of the hold. Tokens strictly
 * increase over successive grants of a name, across processes, languages and
 * server restarts; a re-entrant acquire returns the token of the hold it
 * re-enters and makes no round trip.
 *
 * DLOCK_OK held; DLOCK_NOT_ACQUIRED the wait ran out; DLOCK_E_CONNECTION
 * Redis could not be reached; DLOCK_E_PROTOCOL the key is not a lock (left
 * untouched); DLOCK_E_INTERRUPTED; DLOCK_E_CLOSED; DLOCK_E_INVALID.
 * A waiter never polls: it sleeps until a release message, or until the
 * holder's lease runs out, whichever is first.
 */
DLOCK_API int dlock_lock_acquire(dlock_lock *lock, int64_t wait_ms, int64_t lease_ms,
                                 uint64_t *token_out);

/**
 * As dlock_lock_acquire, for an explicit owner, cut short by `cancel`
 * (may be NULL).
 */
DLOCK_API int dlock_lock_acquire_owner(dlock_lock *lock, uint64_t owner, int64_t wait_ms,
                                       int64_t lease_ms, dlock_cancel *cancel,
                                       uint64_t *token_out);

/**
 * One attempt for `owner`, as the first of a blocking wait the caller starts
 * next (a binding that tries on its own thread before it hands the wait to
 * another): unlike a single attempt (wait_ms 0), which takes a free lock
 * whoever waits, it respects the waiters' turn, so the waiter a release named
 * is not overtaken. Refused, it counts as waiting from now (the wait that
 * follows keeps that place; without one the entry lapses within a second).
 *
 * DLOCK_OK held; DLOCK_NOT_ACQUIRED taken or another's turn; otherwise as
 * dlock_lock_acquire_owner.
 */
DLOCK_API int dlock_lock_try_before_wait_owner(dlock_lock *lock, uint64_t owner, int64_t lease_ms,
                                               uint64_t *token_out);

/**
 * Releases one hold of the calling thread; the outermost release deletes the
 * key and wakes a waiter. DLOCK_E_NOT_OWNER when the caller holds nothing
 * (nothing is touched); DLOCK_E_LOST when its hold had been lost (the hold is
 * forgotten; another owner's hold is never touched), or had expired: its fixed
 * lease ran out as asked, dlock_last_error_is_expiry() then says 1 and
 * dlock_last_error() names the expiry. DLOCK_E_CONNECTION when
 * the release could not be confirmed (timeout, a server busy or loading): it
 * is then retried in the background under the same request id until it goes
 * through or the lease runs out, and the caller may retry it at once by
 * calling release again (or acquire, which finishes it first). That next
 * release is its retry, even once the background finished it: DLOCK_OK, or
 * DLOCK_E_LOST when it found the hold gone (docs/timeouts.md).
 */
DLOCK_API int dlock_lock_release(dlock_lock *lock);
DLOCK_API int dlock_lock_release_owner(dlock_lock *lock, uint64_t owner);

/**
 * Deletes the lock whoever holds it and wakes a waiter; the former holder
 * learns of it as a lost lock (on PostgreSQL and MySQL the row's lease is
 * ended; the holder's watchdog finds it so). DLOCK_OK whether or not it was held;
 * DLOCK_E_PROTOCOL (nothing touched) when the key is not a lock.
 */
DLOCK_API int dlock_lock_force_release(dlock_lock *lock);
/** As dlock_lock_force_release(); *released_out is 1 when a lock was deleted, 0 when it was free. */
DLOCK_API int dlock_lock_force_release_checked(dlock_lock *lock, int *released_out);

/**
 * Sets the remaining lease of the caller's fixed-lease hold to `lease_ms`
 * (1..DLOCK_DURATION_MAX_MS) from now; one round trip, and only while the hold
 * is still the caller's. DLOCK_E_NOT_OWNER when the caller holds nothing,
 * DLOCK_E_LOST when the hold was lost (the lost callback fires if this call
 * finds it first), DLOCK_E_INVALID for a hold the watchdog keeps alive.
 */
DLOCK_API int dlock_lock_extend(dlock_lock *lock, int64_t lease_ms);
DLOCK_API int dlock_lock_extend_owner(dlock_lock *lock, uint64_t owner, int64_t lease_ms);

/** *out = 1 when anyone holds the lock (one round trip). */
DLOCK_API int dlock_lock_is_locked(dlock_lock *lock, int *out);
/** *out = 1 when the calling thread holds it and it is not known lost. */
DLOCK_API int dlock_lock_is_held(dlock_lock *lock, int *out);
DLOCK_API int dlock_lock_is_held_owner(dlock_lock *lock, uint64_t owner, int *out);
/** *out = the caller's number of re-entries (0 when not held). */
DLOCK_API int dlock_lock_hold_count(dlock_lock *lock, int *out);
DLOCK_API int dlock_lock_hold_count_owner(dlock_lock *lock, uint64_t owner, int *out);
/** The fencing token of the caller's current hold; DLOCK_E_NOT_OWNER if none. */
DLOCK_API int dlock_lock_fencing_token(dlock_lock *lock, uint64_t *out);
DLOCK_API int dlock_lock_fencing_token_owner(dlock_lock *lock, uint64_t owner, uint64_t *out);
/** Remaining lease of whoever holds it, in ms; -2 when not locked, -1 no expiry. */
DLOCK_API int dlock_lock_ttl(dlock_lock *lock, int64_t *ms_out);

/**
 * Called once when a hold taken through this handle is lost: a renewal found
 * the key gone or owned by someone else, the lease ran out before a renewal
 * succeeded, or the holder's release found the lock no longer its own. Also
 * called, as it always was, when a fixed lease runs out while still held (an
 * expiry, not a loss: counted in `expiries`, logged at INFO, and the release
 * sets dlock_last_error_is_expiry()): the section is unprotected either way. Runs
 * on the client's watchdog thread (or in that release): it must not block for
 * long, must not change this handle's callback, and must not call dlock
 * functions on this client that wait.
 */
typedef void (*dlock_lost_fn)(const char *name, uint64_t owner, uint64_t token, void *ctx);

/** Sets (or clears, with fn NULL) the handle's lost-lock callback. */
DLOCK_API int dlock_lock_set_lost_callback(dlock_lock *lock, dlock_lost_fn fn, void *ctx);

/* ---- Asynchronous acquire and release ----
 *
 * For callers that must not block a thread while they wait (event loops,
 * Java virtual threads): the call checks its arguments and returns at once;
 * the work runs on the client's async thread (one per client, started on
 * first use), and `done` is called exactly once, on that thread, with the
 * outcome. A blocking dlock_lock_acquire_owner() takes the same steps on the
 * caller's own thread.
 *
 * Every waiting call has such a form: dlock_semaphore_acquire_async,
 * dlock_permit_semaphore_acquire_async, dlock_count_down_latch_await_async,
 * dlock_multilock_acquire_async, dlock_redlock_acquire_async; the fair lock
 * and both sides of a read-write lock are dlock_lock handles.
 *
 * Threading rules for `done`: it runs on the client's async thread, which also
 * drives every other asynchronous call of the client, so it must return
 * quickly and must not wait (no blocking dlock call, no lock a waiting thread
 * holds); it may start further asynchronous calls. It must not close the
 * client. `message` describes an error status (empty otherwise) and is valid
 * only during the call. Ownership: the lock handle, and `cancel` when given,
 * must stay alive until `done` has been called. */

/**
 * Called once with the outcome of an asynchronous call: DLOCK_OK (with the
 * fencing token for an acquire, 0 for a release), DLOCK_NOT_ACQUIRED, or the
 * error status the blocking call would have returned.
 */
typedef void (*dlock_done_fn)(int status, uint64_t token, const char *message, void *ctx);

/**
 * dlock_lock_acquire_owner() without blocking: the same wait, lease and owner
 * semantics, the outcome through `done`; `cancel` (may be NULL) ends the wait
 * with DLOCK_E_INTERRUPTED. Returns DLOCK_OK when `done` will be called,
 * else an error status (DLOCK_E_INVALID, DLOCK_E_CLOSED) and `done` is not
 * called.
 */
DLOCK_API int dlock_lock_acquire_async(dlock_lock *lock, uint64_t owner, int64_t wait_ms,
                                       int64_t lease_ms, dlock_cancel *cancel, dlock_done_fn done,
                                       void *ctx);

/**
 * dlock_lock_release_owner() without blocking: `done` gets DLOCK_OK,
 * DLOCK_E_NOT_OWNER, DLOCK_E_LOST or a connection error. Returns as
 * dlock_lock_acquire_async() does.
 */
DLOCK_API int dlock_lock_release_async(dlock_lock *lock, uint64_t owner, dlock_done_fn done,
                                       void *ctx);

/* ---- Lock administration: kept holds, inspection, attempt counters ---- */

/**
 * Ends the calling thread's hold but leaves the lock taken for `keep_ms` more
 * (1 to DLOCK_DURATION_MAX_MS), as a fixed lease that nothing renews and
 * nothing releases: it lapses on its own. Until it does, nobody acquires the
 * lock, this owner and this client included. For once-per-period jobs: keep
 * the lock after a success until the period ends, so that no node runs the job
 * again within the period.
 *
 * The hold leaves the client at once (the watchdog stops renewing it, freeing
 * the handle does not release it, dlock_lock_is_held says 0). In Redis the
 * holder's field `<client-id>:<owner>` becomes `<client-id>:<owner>:kept`,
 * with the lock's PTTL set to keep_ms. Only an outermost hold can be kept.
 *
 * DLOCK_OK kept. DLOCK_E_NOT_OWNER the caller holds nothing (nothing touched).
 * DLOCK_E_LOST its hold had been lost (it is forgotten; another owner's hold is
 * never touched). DLOCK_E_INVALID NULL lock, keep_ms out of range, or a
 * re-entered hold (hold count > 1: nothing changes; release the inner holds
 * first). DLOCK_E_CONNECTION Redis could not be reached: the hold has left the
 * client either way, and the lock lapses at the end of its current lease at
 * the latest. DLOCK_E_PROTOCOL the key is not a lock. DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_release_keeping(dlock_lock *lock, int64_t keep_ms);
DLOCK_API int dlock_lock_release_keeping_owner(dlock_lock *lock, uint64_t owner,
                                               int64_t keep_ms);

/**
 * A snapshot of a lock, taken in one round trip by dlock_lock_inspect(). Always
 * initialise with dlock_lock_info_init(): the library writes only the first
 * `size` bytes, so a program built against an older header keeps working. It
 * holds no memory; the holders' ids come in a dlock_lock_holders.
 */
typedef struct dlock_lock_info {
  size_t size;                 /**< sizeof(dlock_lock_info), set by _init */
  int64_t ttl_ms;              /**< the lock's PTTL: -2 not locked, -1 no expiry */
  int32_t has_last_token;      /**< 1 when a fencing token was ever granted */
  uint64_t last_token;         /**< the last fencing token granted, else 0 */
  size_t holder_count;         /**< fields of the lock's hash; 0 when not locked */
} dlock_lock_info;

/** The holders' ids and hold counts of one dlock_lock_inspect() snapshot. */
typedef struct dlock_lock_holders dlock_lock_holders;

/** Zeroes `info` and sets info->size. NULL is a no-op. */
DLOCK_API void dlock_lock_info_init(dlock_lock_info *info);

/**
 * Reads who holds the lock, its remaining lease and its last fencing token, as
 * one consistent snapshot. Any client may inspect any lock; nothing changes.
 * `holders_out` may be NULL; otherwise *holders_out is the caller's, freed with
 * dlock_lock_holders_free(), with info->holder_count entries (possibly none).
 *
 * On ZooKeeper the holders are the nodes that hold the lock's path (the
 * reentrant and fair lock's first node; a read-write lock's write node, or its
 * readers), each with the owner id its node's data carries (a Curator node's:
 * its client's address) and hold count 1 (re-entry is counted in the client);
 * ttl_ms is -1 while held (the session keeps it) and the last token is the
 * newest holder's node's creation zxid (none while not held).
 *
 * On PostgreSQL and MySQL the holder is the row's owner while its lease is
 * live (hold count 1: re-entry is counted in the client; on ShedLock's table a
 * row another program locked shows its locked_by), ttl_ms the lease left by
 * the server's clock, and the last token the row's, kept after its release
 * (none on ShedLock's table, which keeps no token).
 *
 * DLOCK_OK; DLOCK_E_INVALID NULL lock or info, or info->size smaller than this
 * header's first dlock_lock_info; DLOCK_E_PROTOCOL the key is not a lock
 * (another type, or a hash whose fields are not lock holders; no holders
 * handed out); DLOCK_E_UNSUPPORTED another kind than a lock on Redis, or a
 * backend that cannot inspect; DLOCK_E_CONNECTION; DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_inspect(dlock_lock *lock, dlock_lock_info *info,
                                 dlock_lock_holders **holders_out);

/**
 * The `index`-th holder (0 <= index < info->holder_count): *id_out its hash
 * field, `<client-id>:<owner>` for dlock and Redisson holders, binary-safe and
 * NUL-terminated, valid until the holders are freed; *id_len_out its length in
 * bytes and *hold_count_out its hold count as Redis records it (each may be
 * NULL). DLOCK_E_INVALID NULL holders or index out of range.
 */
DLOCK_API int dlock_lock_holders_get(const dlock_lock_holders *holders, size_t index,
                                     const char **id_out, size_t *id_len_out,
                                     int64_t *hold_count_out);

/** Frees the holders of a snapshot. NULL is a no-op. */
DLOCK_API void dlock_lock_holders_free(dlock_lock_holders *holders);

/**
 * Counts one more attempt at a job of the period `period_id` (1 to
 * DLOCK_NAME_MAX bytes of the caller's choosing, e.g. the period's start),
 * shared by every client: the counter `dlock_attempts:{NAME}:<period_id>` in
 * the lock's cluster slot. A new counter lapses `expire_in_ms` (1 to
 * DLOCK_DURATION_MAX_MS) after its first attempt, e.g. at the period's end.
 * Nothing is counted once `max_attempts` (>= 1) were counted. Best called
 * while holding the lock, so that the attempt it counts is the caller's.
 *
 * DLOCK_OK counted: *attempt_out is this attempt's number, 1..max_attempts.
 * DLOCK_NOT_ACQUIRED the limit was reached: nothing counted, *attempt_out is
 * the number of attempts counted so far. A retry after a lost reply is not
 * counted twice. DLOCK_E_INVALID NULL lock, period_id or attempt_out, or an
 * argument out of range. DLOCK_E_PROTOCOL the counter's key holds something
 * else. DLOCK_E_CONNECTION; DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_count_attempt(dlock_lock *lock, const char *period_id,
                                       int64_t expire_in_ms, int64_t max_attempts,
                                       int64_t *attempt_out);

/* ---- Lock listing and holder notes (what `dlock list` and `dlock status` show) ---- */

/** Called once per name by dlock_lock_list(); return non-zero to stop early. */
typedef int (*dlock_lock_name_fn)(const char *name, size_t name_len, void *user_data);

/**
 * Calls `each` with the name of every hash on the client's server whose name
 * starts with `prefix` ("" for all): the candidates for locks, found with
 * SCAN ... MATCH <prefix>* TYPE hash (Redis >= 6), so the server is never
 * blocked. Glob characters in `prefix` are matched literally. Names come in
 * SCAN's order, each once; a key created or deleted during the scan may be
 * missed. `each` runs on the calling thread after the scan, holding no
 * connection; names are valid during the call only. Check each name with
 * dlock_lock_inspect(): another hash under the prefix is reported as
 * DLOCK_E_PROTOCOL there. On ZooKeeper: the names under /dlock (unescaped)
 * whose path has a node now, held or awaited; a lock named by a path of the
 * caller's ("/jobs/x") is not listed. On PostgreSQL and MySQL: the names of
 * the lock table (or ShedLock's) whose lease is live.
 *
 * DLOCK_E_INVALID NULL client, prefix or each, or a prefix longer than
 * DLOCK_NAME_MAX; DLOCK_E_CONNECTION; DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_list(dlock_client *client, const char *prefix, dlock_lock_name_fn each,
                              void *user_data);

/**
 * Records `note` (at most 1024 bytes, e.g. "host=web1 pid=4242") as what the
 * hold of `owner` is, for tools that show who holds a lock. It is stored in
 * the key `dlock_holder:{<name>}` (a string: the holder id, a newline, the
 * note), apart from the lock's hash so that Redisson's layout is untouched,
 * and written only while `owner` holds the lock (one round trip, never on the
 * acquire path). The key has no expiry, like the fencing counter, and the next
 * holder's note replaces it: readers compare its holder id with the lock's.
 * On PostgreSQL and MySQL the note is in the lock's row (its `note` column);
 * on ZooKeeper in the holder's node's data, after its holder id (the node
 * goes with the hold); ShedLock's table and an election keep none.
 *
 * DLOCK_OK noted; DLOCK_E_NOT_OWNER `owner` does not hold the lock (nothing
 * written); DLOCK_E_UNSUPPORTED a lock kind (a read-write lock's side) or a
 * backend that keeps no note; DLOCK_E_INVALID; DLOCK_E_CONNECTION;
 * DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_note_holder(dlock_lock *lock, uint64_t owner, const char *note);

/**
 * Reads the last note recorded with dlock_lock_note_holder(): *holder_id_out
 * is the id (as dlock_lock_holders_get() gives it, without a kept hold's
 * ":kept") of the owner that recorded it and *note_out the note, both
 * NUL-terminated and freed with dlock_lock_holder_note_free(). Both are set to NULL (and
 * DLOCK_OK returned) when no note was recorded.
 *
 * DLOCK_E_INVALID; DLOCK_E_PROTOCOL the note key is not dlock's;
 * DLOCK_E_UNSUPPORTED as for dlock_lock_note_holder(); DLOCK_E_CONNECTION;
 * DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_lock_read_holder_note(dlock_lock *lock, char **holder_id_out, char **note_out);

/** Frees a string of dlock_lock_read_holder_note(); NULL is ignored. */
DLOCK_API void dlock_lock_holder_note_free(char *text);

/* ---- Fair lock (first come, first served) ------------------------------- */

/**
 * Makes a handle on the fair lock `name` (the names dlock_lock_new accepts):
 * a dlock_lock that every dlock_lock_* call takes (acquire, release, async,
 * owners, tokens, lost callback, free). Makes no round trip.
 *
 * Waiters are served in their order of arrival at the server. A release
 * grants the lock to the head of the queue inside the release itself and
 * wakes that waiter alone; the waiter confirms and holds it. A waiter that
 * died leaves the queue within 2 s (each client tells the server its waiters
 * are alive every 500 ms), and a grant its waiter never took lapses within
 * 2 s. The lock hash is Redisson's RLock hash, so fair and reentrant locks
 * (dlock's or Redisson's) on one name exclude each other; the queue is
 * dlock's own (dlock_fair_queue:{name}, dlock_fair_seen:{name}). An acquire
 * with wait_ms 0 is granted only when the lock is free and nobody waits.
 */
DLOCK_API int dlock_fair_lock_new(dlock_client *client, const char *name, dlock_lock **out);

/* ---- Read-write lock (Redisson RReadWriteLock layout) ----------------------
 *
 * Readers share, a writer excludes everyone; both sides are reentrant, and a
 * writer may also take the read side (downgrade; releasing the write side then
 * leaves its read hold). Each side is an ordinary dlock_lock handle: acquire
 * (blocking, with an owner, asynchronous), release, is_held, hold_count,
 * fencing_token, is_locked, ttl, force_release, the lost callback and
 * dlock_lock_free work on it as on a lock; a MultiLock may take it as a member.
 * The calls only a reentrant lock has (inspect, count_attempt,
 * release_keeping) return DLOCK_E_UNSUPPORTED.
 *
 * Data: the hash `<name>` with `mode` = read|write and one field per owner
 * (`<client-uuid>:<owner>` for a read hold, `...:write` for a write hold), a
 * read hold's timeout key `{<name>}:<field>:rwlock_timeout:1`, the channel
 * `redisson_rwlock:{<name>}`: a Redisson RReadWriteLock of the same name is
 * the same lock. Fencing tokens (write and read grants) come from
 * `dlock_rwlock_token:{<name>}`, one rising sequence for both sides. A dlock
 * writer that waits sets `{<name>}:write_intent`; new dlock readers wait
 * behind it (docs/read-write-lock.md).
 *
 * is_locked: the write side when a writer holds it; the read side when a
 * reader holds it (Redisson's answers). The names follow dlock_lock_new's rules.
 *
 * DLOCK_E_INVALID: NULL client, name or out, or a bad name. DLOCK_E_CLOSED:
 * the client is closed.
 */
DLOCK_API int dlock_rwlock_read_lock(dlock_client *client, const char *name, dlock_lock **out);
DLOCK_API int dlock_rwlock_write_lock(dlock_client *client, const char *name, dlock_lock **out);

/**
 * Writer preference of a write-side handle (on by default): while a writer
 * taken through `write_side` waits, it keeps `{<name>}:write_intent` alive
 * (until it is due to try again plus a second, never past its own wait; a
 * writer that stops waiting withdraws it), and
 * dlock readers that hold nothing on the lock wait behind it; re-entries and
 * a writer's own read (downgrade) never wait. Off (0): readers are preferred,
 * as in Redisson, and a continuous stream of readers can starve a writer.
 * Redisson's readers ignore the intent either way.
 *
 * DLOCK_E_INVALID: NULL, or not a handle from dlock_rwlock_write_lock().
 */
DLOCK_API int dlock_rwlock_set_writer_preference(dlock_lock *write_side, int enabled);

/* ---------------------------------------------------------------------------
 * Semaphores and the count-down latch, in Redisson's layouts: a dlock process
 * and a Redisson process using the same name share permits and counts and
 * wake each other's waiters. Waits are event-driven (the primitive's pub/sub
 * channel), cut short by a cancel token (DLOCK_E_INTERRUPTED) or by closing
 * the client (DLOCK_E_CLOSED). Names follow the lock's rules (1 to
 * DLOCK_NAME_MAX bytes, a usable hash tag); wait_ms is as for
 * dlock_lock_acquire. Calls on a handle whose client was closed return
 * DLOCK_E_CLOSED; freeing handles in any order is safe; NULL frees are no-ops.
 * ------------------------------------------------------------------------- */

/**
 * A counting semaphore (Redisson RSemaphore): the key `name` holds the
 * available permits; changes are published on `redisson_sc:{name}`. Permits
 * are not owned: any caller may release them, and nothing renews them.
 */
typedef struct dlock_semaphore dlock_semaphore;

DLOCK_API int dlock_semaphore_new(dlock_client *client, const char *name, dlock_semaphore **out);
DLOCK_API void dlock_semaphore_free(dlock_semaphore *semaphore);
/**
 * Takes `permits` (> 0) permits, waiting as `wait_ms` says; `cancel` may be
 * NULL. DLOCK_OK taken, DLOCK_NOT_ACQUIRED the wait ran out. A semaphore
 * that was never set has no permits. After DLOCK_E_CONNECTION the caller has
 * no permits: an acquire that ran late gives them back (docs/timeouts.md).
 */
DLOCK_API int dlock_semaphore_acquire(dlock_semaphore *semaphore, int permits, int64_t wait_ms,
                                      dlock_cancel *cancel);
/**
 * dlock_semaphore_acquire() without blocking, by the rules of
 * dlock_lock_acquire_async(): `done` gets DLOCK_OK (token 0) taken,
 * DLOCK_NOT_ACQUIRED, or the error status; the handle and `cancel` stay alive
 * until it is called. Thousands of such waits cost the client's one async thread.
 */
DLOCK_API int dlock_semaphore_acquire_async(dlock_semaphore *semaphore, int permits, int64_t wait_ms,
                                            dlock_cancel *cancel, dlock_done_fn done, void *ctx);
/**
 * Returns `permits` (> 0) permits and wakes the waiters. DLOCK_E_LOST, adding
 * nothing, when they were taken through this handle and the semaphore's key
 * has vanished since (a restart without persistence, a failover):
 * dlock_semaphore_try_set_permits can then set it again. After
 * DLOCK_E_CONNECTION the release is finished by the client, once; the same
 * release again (same owner, same permits) is its retry and adds nothing more.
 */
DLOCK_API int dlock_semaphore_release(dlock_semaphore *semaphore, int permits);
/**
 * Sets the permits (>= 0) when the semaphore does not exist (never set, or
 * vanished); *set_out 1 set, 0 it existed.
 */
DLOCK_API int dlock_semaphore_try_set_permits(dlock_semaphore *semaphore, int permits, int *set_out);
DLOCK_API int dlock_semaphore_available_permits(dlock_semaphore *semaphore, int64_t *out);

/**
 * A semaphore of leased permits (Redisson RPermitExpirableSemaphore): the key
 * `name` holds the available count, the ZSET `{name}:timeout` the taken
 * permit ids scored by the epoch ms their lease ends. A permit whose holder
 * crashed returns to the pool when its lease ends.
 *
 * ZooKeeper: Curator's InterProcessSemaphoreV2 on the name's path, a permit
 * one lease node under <path>/leases, kept by the session (lease_ms must be
 * -1: DLOCK_E_INVALID otherwise). The permits are the 4-byte big-endian int
 * at <path>/permits (Curator's SharedCount), which
 * dlock_permit_semaphore_try_set_permits creates while absent; until then an
 * acquire is DLOCK_E_INVALID. Only the client that took a permit releases it
 * (DLOCK_E_NOT_OWNER for another's). docs/permit-expirable-semaphore.md.
 */
typedef struct dlock_permit_semaphore dlock_permit_semaphore;

/** A permit id is 32 lowercase hex digits: a buffer of this size holds it and its NUL. */
#define DLOCK_PERMIT_ID_SIZE 33

DLOCK_API int dlock_permit_semaphore_new(dlock_client *client, const char *name, dlock_permit_semaphore **out);
/** Frees the handle, releasing the permits still held through it. */
DLOCK_API void dlock_permit_semaphore_free(dlock_permit_semaphore *semaphore);
/**
 * Takes one permit, waiting as `wait_ms` says; `lease_ms` as for
 * dlock_lock_acquire (-1: renewed by the client's watchdog until released).
 * On DLOCK_OK the permit's id is written to `id_out`, a caller buffer of
 * `id_size` >= DLOCK_PERMIT_ID_SIZE bytes. DLOCK_NOT_ACQUIRED: the wait ran out.
 * After DLOCK_E_CONNECTION no permit is held: one granted late is returned.
 */
DLOCK_API int dlock_permit_semaphore_acquire(dlock_permit_semaphore *semaphore, int64_t wait_ms, int64_t lease_ms,
                                             dlock_cancel *cancel, char *id_out, size_t id_size);
/**
 * Called once with the outcome of dlock_permit_semaphore_acquire_async():
 * `permit_id` is the permit's id on DLOCK_OK, else ""; `message` describes an
 * error status. Both are valid only during the call.
 */
typedef void (*dlock_permit_done_fn)(int status, const char *permit_id, const char *message, void *ctx);
/**
 * dlock_permit_semaphore_acquire() without blocking, by the rules of
 * dlock_lock_acquire_async(); the permit's id comes through `done`.
 */
DLOCK_API int dlock_permit_semaphore_acquire_async(dlock_permit_semaphore *semaphore, int64_t wait_ms,
                                                   int64_t lease_ms, dlock_cancel *cancel,
                                                   dlock_permit_done_fn done, void *ctx);
/**
 * Releases the permit `permit_id` (this process's or any other's, as in
 * Redisson; on ZooKeeper this client's only). DLOCK_E_LOST: this client held
 * it but its lease had run out (it went back to the pool); DLOCK_E_NOT_OWNER:
 * no such permit is held (by this client, on ZooKeeper).
 */
DLOCK_API int dlock_permit_semaphore_release(dlock_permit_semaphore *semaphore, const char *permit_id);
/** As release, with *released_out 0 instead of DLOCK_E_LOST or DLOCK_E_NOT_OWNER. */
DLOCK_API int dlock_permit_semaphore_try_release(dlock_permit_semaphore *semaphore, const char *permit_id,
                                                 int *released_out);
DLOCK_API int dlock_permit_semaphore_try_set_permits(dlock_permit_semaphore *semaphore, int permits, int *set_out);
/** Available permits, after returning those whose lease ended. */
DLOCK_API int dlock_permit_semaphore_available_permits(dlock_permit_semaphore *semaphore, int64_t *out);
/** Called once, from a dlock thread, for a permit taken through this handle and lost. */
typedef void (*dlock_permit_lost_fn)(const char *name, const char *permit_id, void *ctx);
/** Sets (or with NULL clears) the handle's lost-permit callback. */
DLOCK_API int dlock_permit_semaphore_set_lost_callback(dlock_permit_semaphore *semaphore, dlock_permit_lost_fn fn,
                                                       void *ctx);

/**
 * A count-down latch (Redisson RCountDownLatch): the key `name` holds the
 * count and is deleted at zero; `redisson_countdownlatch__channel__{name}`
 * carries 0 when it reaches zero.
 */
typedef struct dlock_count_down_latch dlock_count_down_latch;

DLOCK_API int dlock_count_down_latch_new(dlock_client *client, const char *name, dlock_count_down_latch **out);
DLOCK_API void dlock_count_down_latch_free(dlock_count_down_latch *latch);
/** Sets the count (> 0) when the latch does not exist; *set_out 1 set, 0 it existed. */
DLOCK_API int dlock_count_down_latch_try_set_count(dlock_count_down_latch *latch, int64_t count, int *set_out);
/**
 * Counts down by one; at zero the waiters wake. After DLOCK_E_CONNECTION the
 * count-down may still run: the client finishes it, once; the caller's next
 * count-down is its retry and counts nothing more (docs/timeouts.md).
 */
DLOCK_API int dlock_count_down_latch_count_down(dlock_count_down_latch *latch);
/** The count, 0 when the latch is open (or was never set). */
DLOCK_API int dlock_count_down_latch_get_count(dlock_count_down_latch *latch, int64_t *out);
/**
 * Waits until the count is zero: DLOCK_OK open, DLOCK_NOT_ACQUIRED the wait ran
 * out. DLOCK_E_LOST when a count above zero that the wait saw vanished without
 * a count-down to zero (a restart without persistence, a failover lost it).
 */
DLOCK_API int dlock_count_down_latch_await(dlock_count_down_latch *latch, int64_t wait_ms, dlock_cancel *cancel);
/**
 * dlock_count_down_latch_await() without blocking, by the rules of
 * dlock_lock_acquire_async(): `done` gets DLOCK_OK (token 0) open,
 * DLOCK_NOT_ACQUIRED, or the error status.
 */
DLOCK_API int dlock_count_down_latch_await_async(dlock_count_down_latch *latch, int64_t wait_ms,
                                                 dlock_cancel *cancel, dlock_done_fn done, void *ctx);

/* ---- MultiLock and RedLock: one lock over several locks ----
 *
 * Both take their members as lock handles (dlock_lock_new) and keep what they
 * need of them: the member handles may be freed afterwards. A member is held
 * for the same owner as the group, so the owner's own holds of a member are
 * re-entered, not fought over. lease_ms -1 keeps every member alive with its
 * client's watchdog. Waiting is event-driven: the caller sleeps until a
 * release message on the channel of a member that refused (or that holder's
 * lease runs out). See docs/multilock-redlock.md. */

/**
 * A MultiLock holds all its members or none (Redisson's RedissonMultiLock).
 * Members may come from one client or several. They are taken in a canonical
 * order (by server, then name), whatever order they were given in, and a
 * failed attempt lets go of every member it took before it waits, so callers
 * locking overlapping sets in different orders never deadlock.
 */
typedef struct dlock_multilock dlock_multilock;

/**
 * Makes a MultiLock over `count` (>= 1) lock handles. DLOCK_E_INVALID (naming
 * the argument): NULL members, out or member, count 0, the same lock (server
 * and name) given twice, a member whose client was closed. No round trip.
 */
DLOCK_API int dlock_multilock_new(dlock_lock *const *members, size_t count, dlock_multilock **out);
/** Frees it; holds still taken through it are released first. NULL is a no-op. */
DLOCK_API void dlock_multilock_free(dlock_multilock *multilock);

/**
 * Acquires every member for the calling thread within `wait_ms` (as for
 * dlock_lock_acquire), or none. Re-entrant: the owner's second acquire
 * re-enters each member (no round trip). No fencing token: each member has
 * its own (dlock_lock_fencing_token on a member gives it).
 * DLOCK_OK all held; DLOCK_NOT_ACQUIRED the wait ran out (no member held);
 * DLOCK_E_CONNECTION a member's server could not be reached (none held);
 * DLOCK_E_LOST re-entering a hold that was lost; DLOCK_E_INTERRUPTED;
 * DLOCK_E_CLOSED a member's client was closed; DLOCK_E_PROTOCOL; DLOCK_E_INVALID.
 */
DLOCK_API int dlock_multilock_acquire(dlock_multilock *multilock, int64_t wait_ms, int64_t lease_ms);
/** As dlock_multilock_acquire, for an explicit owner, cut short by `cancel` (may be NULL). */
DLOCK_API int dlock_multilock_acquire_owner(dlock_multilock *multilock, uint64_t owner, int64_t wait_ms,
                                            int64_t lease_ms, dlock_cancel *cancel);
/**
 * dlock_multilock_acquire_owner() without blocking, by the rules of
 * dlock_lock_acquire_async(): `done` (token 0) runs on the async thread of
 * the first member's client (in canonical order).
 */
DLOCK_API int dlock_multilock_acquire_async(dlock_multilock *multilock, uint64_t owner, int64_t wait_ms,
                                            int64_t lease_ms, dlock_cancel *cancel, dlock_done_fn done, void *ctx);
/**
 * Releases one hold of the caller (the outermost releases every member).
 * DLOCK_E_NOT_OWNER the caller holds nothing; DLOCK_E_LOST a member's hold had
 * been lost (the other members are released all the same).
 */
DLOCK_API int dlock_multilock_release(dlock_multilock *multilock);
DLOCK_API int dlock_multilock_release_owner(dlock_multilock *multilock, uint64_t owner);
/** *out = the owner's re-entries of its MultiLock hold (0 when not held). No round trip. */
DLOCK_API int dlock_multilock_hold_count_owner(dlock_multilock *multilock, uint64_t owner, int *out);
/**
 * *out = 1 when the owner holds the MultiLock and the hold is still valid: no
 * member lost, and (with a fixed lease) the lease has not run out; else 0, as
 * dlock_lock_is_held. No round trip.
 */
DLOCK_API int dlock_multilock_is_held_owner(dlock_multilock *multilock, uint64_t owner, int *out);
/**
 * Called once when a MultiLock hold is lost (any member lost), with `name` the
 * members' names joined by ',' and token 0; same threading rules as
 * dlock_lock_set_lost_callback.
 */
DLOCK_API int dlock_multilock_set_lost_callback(dlock_multilock *multilock, dlock_lost_fn fn, void *ctx);

/**
 * A RedLock over N >= 3 locks on N independent servers: held when a majority
 * of the members are granted within the wait and the grant's validity
 * (lease - elapsed - drift, drift = lease/100 + 2 ms, elapsed measured from
 * before the first request left) is positive. Members are tried in parallel,
 * each given a short patience (lease/20, 50 ms to 1 s). A failed attempt
 * releases every member, including those whose reply was lost. It gives no
 * fencing token: the members' counters are independent, so no number built
 * from them is ordered across grants (see docs/multilock-redlock.md).
 */
typedef struct dlock_redlock dlock_redlock;

/**
 * Makes a RedLock over `count` (>= 3) lock handles. DLOCK_E_INVALID (naming
 * the argument): NULL members, out or member, count < 3, the same lock given
 * twice, two members whose clients talk to one server (same host:port/db, or
 * socket path/db), a member whose client was closed. No round trip.
 */
DLOCK_API int dlock_redlock_new(dlock_lock *const *members, size_t count, dlock_redlock **out);
/** Frees it; holds still taken through it are released first. NULL is a no-op. */
DLOCK_API void dlock_redlock_free(dlock_redlock *redlock);
/**
 * Acquires a majority of the members for the calling thread. validity_ms_out
 * (may be NULL) gets the grant's validity: the caller may trust the hold for
 * that long from the call's return, never longer than the servers do.
 * DLOCK_OK held; DLOCK_NOT_ACQUIRED the wait ran out with a majority of the
 * servers answering (nothing held); DLOCK_E_CONNECTION fewer than a majority
 * answered in the last attempt (nothing held); DLOCK_E_LOST re-entering a lost
 * hold; DLOCK_E_INTERRUPTED; DLOCK_E_CLOSED; DLOCK_E_INVALID.
 */
DLOCK_API int dlock_redlock_acquire(dlock_redlock *redlock, int64_t wait_ms, int64_t lease_ms,
                                    int64_t *validity_ms_out);
/** As dlock_redlock_acquire, for an explicit owner, cut short by `cancel` (may be NULL). */
DLOCK_API int dlock_redlock_acquire_owner(dlock_redlock *redlock, uint64_t owner, int64_t wait_ms,
                                          int64_t lease_ms, dlock_cancel *cancel, int64_t *validity_ms_out);
/**
 * dlock_redlock_acquire_owner() without blocking, by the rules of
 * dlock_lock_acquire_async(): `done` (token 0) runs on the async thread of
 * the first member's client (in canonical order); after DLOCK_OK,
 * dlock_redlock_validity_owner() tells the validity. An attempt occupies that
 * thread up to the members' patience (lease/20, 50..1000 ms).
 */
DLOCK_API int dlock_redlock_acquire_async(dlock_redlock *redlock, uint64_t owner, int64_t wait_ms,
                                          int64_t lease_ms, dlock_cancel *cancel, dlock_done_fn done, void *ctx);
/**
 * Releases one hold of the caller: the outermost releases every member it
 * holds, in parallel, each given up to 1 s (a member that does not answer lets
 * its hold lapse with its lease; nothing renews it). DLOCK_OK when a majority
 * was released; DLOCK_E_NOT_OWNER nothing held; DLOCK_E_LOST fewer than a
 * majority of the members were still held.
 */
DLOCK_API int dlock_redlock_release(dlock_redlock *redlock);
DLOCK_API int dlock_redlock_release_owner(dlock_redlock *redlock, uint64_t owner);
/**
 * *ms_out = how long the caller's hold is still valid: the majority-th latest
 * of its members' trusted ends (and, with a fixed lease, no later than the
 * grant's validity); 0 when not held or lost. No round trip.
 */
DLOCK_API int dlock_redlock_validity(dlock_redlock *redlock, int64_t *ms_out);
DLOCK_API int dlock_redlock_validity_owner(dlock_redlock *redlock, uint64_t owner, int64_t *ms_out);
/** *out = the owner's re-entries of its RedLock hold (0 when not held). No round trip. */
DLOCK_API int dlock_redlock_hold_count_owner(dlock_redlock *redlock, uint64_t owner, int *out);
/**
 * *out = 1 when the owner holds the RedLock and its validity has not run out
 * (dlock_redlock_validity_owner > 0): a majority still held, the fixed lease
 * not over; else 0, as dlock_lock_is_held. No round trip.
 */
DLOCK_API int dlock_redlock_is_held_owner(dlock_redlock *redlock, uint64_t owner, int *out);
/**
 * Called once when a RedLock hold is lost: fewer than a majority of its
 * members stay held (renewals failed, leases ran out). `name` is the members'
 * names joined by ','; token 0.
 */
DLOCK_API int dlock_redlock_set_lost_callback(dlock_redlock *redlock, dlock_lost_fn fn, void *ctx);

/* ---- Leader election ----
 *
 * One leader at a time among the candidates of a name, across processes and
 * machines, with a term: a fencing token that only grows, given to each
 * leader, that the resource it drives can check. A candidate is an election
 * handle (not a thread): any thread may campaign, resign or proclaim for it,
 * and one handle campaigns for one leadership at a time. Leadership is a
 * lock held with the watchdog's lease: a leader that crashes is replaced once
 * its lease runs out; one that is paused or cut off is told it lost (the lost
 * callback, dlock_election_is_leader() turning 0) by its validity deadline,
 * before another candidate can be granted, and resumes as a follower. A
 * resign hands over at once: the next waiting candidate is woken by the
 * release.
 *
 * Data: the leadership is the lock `dlock_election:{<name>}` (its keys in the
 * lock's layout); the leader's value, term and start are the hash
 * `dlock_leader:{<name>}`; every new leader and every proclaimed value is
 * appended to the stream `dlock_leaders:{<name>}` (about the last 1,000
 * entries are kept), which observers follow. Values are 0 to
 * DLOCK_ELECTION_VALUE_MAX bytes. */

typedef struct dlock_election dlock_election;

/** The longest value a candidate may publish, in bytes. */
#define DLOCK_ELECTION_VALUE_MAX 1024

/** A leader as every client sees it. */
typedef struct dlock_leader {
  uint64_t term;    /**< the leader's term: its fencing token */
  int64_t since_ms; /**< when the term began, Unix time in ms by the server's clock */
  size_t value_len; /**< bytes of value, not counting the NUL after them */
  char value[DLOCK_ELECTION_VALUE_MAX + 1]; /**< what the leader published, NUL-terminated */
} dlock_leader;

/**
 * A candidate for the leadership of `name` (the lock's name rules). No round
 * trip. DLOCK_E_INVALID naming the argument; DLOCK_E_CLOSED.
 */
DLOCK_API int dlock_election_new(dlock_client *client, const char *name, dlock_election **out);
/** Stops its observer, resigns if it leads, and frees it. NULL is a no-op. */
DLOCK_API void dlock_election_free(dlock_election *election);
DLOCK_API const char *dlock_election_name(const dlock_election *election);
/**
 * Becomes leader, publishing `value` (NUL-terminated; NULL for none), waiting
 * up to `wait_ms` (0 one attempt, -1 forever) while another leads. *term_out
 * (may be NULL) gets the term. A candidate that leads already gets its term
 * again (its value unchanged: dlock_election_proclaim changes it). DLOCK_OK
 * leader; DLOCK_NOT_ACQUIRED the wait ran out; DLOCK_E_CLOSED;
 * DLOCK_E_CONNECTION; DLOCK_E_INVALID (a value over DLOCK_ELECTION_VALUE_MAX
 * bytes, a bad wait).
 */
DLOCK_API int dlock_election_campaign(dlock_election *election, const char *value, int64_t wait_ms,
                                      uint64_t *term_out);
/** As dlock_election_campaign, cut short by `cancel` (may be NULL) with DLOCK_E_INTERRUPTED. */
DLOCK_API int dlock_election_campaign_cancellable(dlock_election *election, const char *value,
                                                  int64_t wait_ms, dlock_cancel *cancel,
                                                  uint64_t *term_out);
/**
 * dlock_election_campaign() without blocking, by the rules of
 * dlock_lock_acquire_async(): `done` gets the term as its token.
 */
DLOCK_API int dlock_election_campaign_async(dlock_election *election, const char *value,
                                            int64_t wait_ms, dlock_cancel *cancel, dlock_done_fn done,
                                            void *ctx);
/**
 * Gives the leadership up at once: the next candidate waiting is granted
 * without waiting for a lease. DLOCK_E_NOT_OWNER when this candidate does not
 * lead (nothing touched); DLOCK_E_LOST when its leadership had been lost.
 */
DLOCK_API int dlock_election_resign(dlock_election *election);
/**
 * Publishes a new value for the leader's term (no new term); observers see
 * it. DLOCK_E_NOT_OWNER when this candidate does not lead; DLOCK_E_INVALID
 * for a value over DLOCK_ELECTION_VALUE_MAX bytes.
 */
DLOCK_API int dlock_election_proclaim(dlock_election *election, const char *value);
/**
 * *out = the current leader, as the server has it (one round trip), from any
 * client: DLOCK_OK; DLOCK_NOT_ACQUIRED when nobody leads (*out zeroed).
 */
DLOCK_API int dlock_election_leader(dlock_election *election, dlock_leader *out);
/**
 * *out = 1 while this candidate leads and its term is valid (its lease not
 * lost, by the client's deadline); else 0. No round trip.
 */
DLOCK_API int dlock_election_is_leader(dlock_election *election, int *out);
/** *out = this candidate's term while it leads; DLOCK_E_NOT_OWNER otherwise. No round trip. */
DLOCK_API int dlock_election_term(dlock_election *election, uint64_t *out);
/**
 * Called once when this candidate's leadership is lost (renewals failed or
 * its lease ran out), before another candidate can be granted: `owner` is 0,
 * `token` the lost term. Runs as the lock's lost callback does.
 */
DLOCK_API int dlock_election_set_lost_callback(dlock_election *election, dlock_lost_fn fn, void *ctx);

/**
 * Called with each change of leader, in order: first the leader at the time
 * observing starts (when there is one), then every new term and every
 * proclaimed value, none twice and none missed (across reconnects too, as
 * long as the server kept the entries: about the last 1,000). `leader` is
 * valid only during the call.
 */
typedef void (*dlock_leader_fn)(const dlock_leader *leader, void *ctx);
/**
 * Starts following the leaders of this election's name on a thread of its
 * own with its own connection, calling `fn` from that thread; `fn` NULL
 * stops it (waiting for a call under way to return). A second call replaces
 * the first's callback. `fn` must not free the election.
 */
DLOCK_API int dlock_election_observe(dlock_election *election, dlock_leader_fn fn, void *ctx);

/* ---- Observability: logging and counters ---- */

/** Log levels, most severe first; values are fixed and only ever added to. */
#define DLOCK_LOG_ERROR 1 /**< something failed that the caller cannot see otherwise */
#define DLOCK_LOG_WARN 2  /**< connection lost, renewals failing, a lock lost, eviction policy */
#define DLOCK_LOG_INFO 3  /**< recoveries (reconnected, renewals succeed again), long waits */
#define DLOCK_LOG_DEBUG 4 /**< transient server states retried, details of the above */

/**
 * Receives one log record: `level` is one of DLOCK_LOG_*, `message` is
 * NUL-terminated text valid only during the call (copy it to keep it), never
 * containing a password. `user_data` is what dlock_set_log_handler() got.
 *
 * Threading: called from the clients' background threads (watchdog,
 * subscriber) and from the threads that call dlock functions, possibly from
 * several threads at once. It must return quickly, must not call
 * dlock_set_log_handler(), and must not call dlock functions that wait
 * (acquire, release, close...): hand the record to a queue if it needs more.
 */
typedef void (*dlock_log_fn)(int level, const char *message, void *user_data);

/**
 * Sets the process-wide log handler: records of level <= min_level (e.g.
 * DLOCK_LOG_WARN: errors and warnings) go to fn; fn NULL turns logging off
 * (the default). A level that is off costs one atomic load; records are
 * formatted only when a handler wants them. Returns after every call of the
 * previous handler in progress has finished, so its user_data may be freed
 * then. Thread-safe.
 *
 * DLOCK_E_INVALID: min_level is not one of DLOCK_LOG_* (fn not NULL).
 */
DLOCK_API int dlock_set_log_handler(dlock_log_fn fn, void *user_data, int min_level);

/**
 * A client's counters since it was opened (in this process: a child after
 * fork() counts from zero). Counting is always on and costs a few relaxed
 * atomic increments per operation. Fields are only ever appended: set `size`
 * to sizeof(dlock_client_stats) before the call; the library fills the fields
 * that fit in `size` bytes.
 */
typedef struct dlock_client_stats {
  size_t size;                  /**< set by the caller: sizeof(dlock_client_stats) */
  uint64_t grants;              /**< holds granted by the server (re-entries not included) */
  uint64_t reentries;           /**< acquires that re-entered a hold, no round trip */
  uint64_t waits;               /**< acquires that found the lock taken and waited */
  uint64_t handoffs;            /**< grants after waiting that a release message woke */
  uint64_t renewals;            /**< leases renewed by the watchdog (one per hold) */
  uint64_t renewal_round_trips; /**< the watchdog's batches (one round trip each) */
  uint64_t locks_lost;          /**< holds found lost: taken, deleted, or a watchdog lease that lapsed */
  uint64_t reconnects;          /**< connections made again after one broke or failed */
  uint64_t transient_retries;   /**< commands retried after LOADING, BUSY, MASTERDOWN... */
  int64_t wait_p50_us;          /**< wait before a grant, median (0 when none waited) */
  int64_t wait_p99_us;          /**< 99th percentile (log-scale buckets, within 25%) */
  int64_t wait_max_us;          /**< longest wait that ended in a grant */
  uint64_t failovers;           /**< Sentinel: moves to a new master followed */
  uint64_t expiries;            /**< fixed leases (lease_ms > 0) that ran out as asked: not losses */
} dlock_client_stats;

/**
 * Fills `out` with the client's counters, the fields that fit in out->size.
 *
 * DLOCK_E_INVALID: NULL client or out, or out->size too small for the first
 * counter. DLOCK_E_CLOSED: the client is closed.
 */
DLOCK_API int dlock_client_stats_get(dlock_client *client, dlock_client_stats *out);

/* ---- Non-reentrant lock ---- */

/**
 * Makes a handle on the non-reentrant lock `name` (names as dlock_lock_new's).
 * Makes no round trip. Every dlock_lock_* call takes it, with these
 * differences: an owner that holds it is not let in again (as Python's
 * threading.Lock, Curator's InterProcessSemaphoreMutex): its acquire waits for
 * the lock like any other owner's, that is for its own release (from another
 * thread through dlock_lock_release_owner, or never): wait_ms = 0 answers
 * DLOCK_NOT_ACQUIRED at once, a wait_ms > 0 runs out with DLOCK_NOT_ACQUIRED,
 * -1 waits until the release. Its hold count is 0 or 1.
 *
 * Redis: Redisson's RLock layout (the reentrant lock's hash, counter and
 * channel), so it excludes the reentrant lock and Redisson's RLock on the
 * same name; the holder's second acquire is kept waiting by the client, which
 * never sends it while the hold lasts, and is woken by the release's message;
 * threads sharing one owner id whose acquires reach Redis together are told
 * apart by the script (the owner's field under another request is refused).
 * Handles of one client on the name share their holds, the reentrant lock's
 * among them: a reentrant handle's acquire re-enters the owner's
 * non-reentrant hold.
 * ZooKeeper: Curator's InterProcessSemaphoreMutex layout (one lease of
 * InterProcessSemaphoreV2: waiters queue on <path>/locks, the holder's
 * node is under <path>/leases; its czxid is the fencing token), so it
 * excludes Curator's InterProcessSemaphoreMutex on the same path, but not
 * InterProcessMutex nor dlock_lock_new's lock (another layout, as in
 * Curator). lease_ms must be -1 there (DLOCK_E_INVALID otherwise).
 *
 * DLOCK_E_INVALID: NULL argument, a name the backend refuses.
 * DLOCK_E_CLOSED: the client is closed.
 */
DLOCK_API int dlock_lock_new_nonreentrant(dlock_client *client, const char *name, dlock_lock **out);

#ifdef __cplusplus
}
#endif

#endif /* DLOCK_H */
