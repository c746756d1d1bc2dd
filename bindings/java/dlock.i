/*
 * SWIG interface: the C ABI of include/dlock.h as package-private classes of
 * io.dlock (NativeClient, NativeLock, NativeCancel, NativeLostCallback,
 * NativeElection...). The
 * public API is the hand-written layer beside them (DLockClient, DLock, ...);
 * nothing generated here is visible outside the package.
 */
%module(directors="1") DLockNative

%{
#include <string>

#include "dlock.h"

namespace dlock_jni {

/* A failed status on its way from an %extend body to the %exception below. */
struct StatusError {
  int status;
};

/* Passes DLOCK_OK and DLOCK_NOT_ACQUIRED through; errors become StatusError. */
static int check(int status) {
  if (status < 0) throw StatusError{status};
  return status;
}

/* A Java String of the core's text, which is UTF-8: NewStringUTF reads JNI's
   "modified UTF-8", and would garble a character beyond U+FFFF in a name. A
   malformed sequence becomes U+FFFD. */
static jstring javaString(JNIEnv *jenv, const char *text) {
  static const char32_t smallest[] = {0, 0x80, 0x800, 0x10000};
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(text);
  std::u16string utf16;
  size_t i = 0;
  while (bytes[i] != 0) {
    const unsigned char lead = bytes[i];
    const int extra = lead < 0x80 ? 0 : (lead >> 5) == 0x6 ? 1 : (lead >> 4) == 0xE ? 2 : (lead >> 3) == 0x1E ? 3 : -1;
    if (extra < 0) {
      utf16.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t code = lead & (0x7F >> extra);
    size_t length = 1;
    /* Stops at the closing NUL, which is no continuation byte. */
    while (length <= static_cast<size_t>(extra) && (bytes[i + length] & 0xC0) == 0x80) {
      code = (code << 6) | (bytes[i + length++] & 0x3F);
    }
    i += length;
    if (length != static_cast<size_t>(extra) + 1 || code < smallest[extra] || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF)) {
      utf16.push_back(0xFFFD);
    } else if (code >= 0x10000) {
      utf16.push_back(static_cast<char16_t>(0xD800 + ((code - 0x10000) >> 10)));
      utf16.push_back(static_cast<char16_t>(0xDC00 + ((code - 0x10000) & 0x3FF)));
    } else {
      utf16.push_back(static_cast<char16_t>(code));
    }
  }
  return jenv->NewString(reinterpret_cast<const jchar *>(utf16.data()), static_cast<jsize>(utf16.size()));
}

/* Raises the Java exception for `status`, built by io.dlock.NativeErrors (the
   one status -> exception table), with the core's message for this thread and
   whether it called a DLOCK_E_LOST an expiry. */
static void throwJava(JNIEnv *jenv, int status) {
  jclass errors = jenv->FindClass("io/dlock/NativeErrors");
  if (!errors) return; /* NoClassDefFoundError is pending */
  jmethodID toException = jenv->GetStaticMethodID(
      errors, "toException", "(ILjava/lang/String;Z)Ljava/lang/RuntimeException;");
  if (!toException) return;
  const jboolean expiry = dlock_last_error_is_expiry() ? JNI_TRUE : JNI_FALSE;
  jstring message = javaString(jenv, dlock_last_error());
  if (!message) return;
  jobject exception = jenv->CallStaticObjectMethod(errors, toException, (jint)status, message, expiry);
  if (exception) jenv->Throw((jthrowable)exception);
}

}  // namespace dlock_jni
%}

/* Status-returning calls reach Java as exceptions of one family; outcomes
   (DLOCK_OK, DLOCK_NOT_ACQUIRED) come back as values. */
%exception {
  try {
    $action
  } catch (const dlock_jni::StatusError &error) {
    dlock_jni::throwJava(jenv, error.status);
    return $null;
  }
}

/* Owner ids and tokens are uint64 in C and long in Java (thread ids are
   positive; tokens fit in 63 bits); times are int64 milliseconds. */
%apply long long { int64_t, uint64_t };

/* Text arguments reach the core as UTF-8 made and checked in Java
   (NativeText.utf8, which names the argument in its exception), never by JNI's
   GetStringUTFChars: its "modified UTF-8" turns a NUL into two bytes and a
   character beyond U+FFFF into a surrogate pair, so the core would see another
   name than a Python or Redisson client given the same text. Matched by
   parameter name: the callbacks' strings, which go the other way, are named
   otherwise. */
%typemap(jni) const char *TEXT "jbyteArray"
%typemap(jtype) const char *TEXT "byte[]"
%typemap(jstype) const char *TEXT "String"
%typemap(javain) const char *TEXT "NativeText.utf8($javainput, \"$javainput\")"
/* Copied into a local std::string, which every return path frees (a failed
   status returns from inside %exception). */
%typemap(in) const char *TEXT (std::string utf8) {
  utf8.resize(static_cast<size_t>(jenv->GetArrayLength($input)));
  jenv->GetByteArrayRegion($input, 0, static_cast<jsize>(utf8.size()), reinterpret_cast<jbyte *>(&utf8[0]));
  $1 = const_cast<char *>(utf8.c_str());
}
%typemap(freearg) const char *TEXT ""
%apply const char *TEXT { const char *url, const char *name, const char *permitId, const char *periodId,
                          const char *value };

/* Text from the core to the callbacks (directors), as UTF-8 too. */
%typemap(directorin, descriptor="Ljava/lang/String;", noblock=1)
    const char *lockName, const char *semaphoreName, const char *lostPermitId, const char *grantedPermitId,
    const char *message, const char *leaderValue {
  $input = 0;
  if ($1) {
    $input = dlock_jni::javaString(jenv, $1);
    if (!$input) return $null;
  }
  Swig::LocalRefGuard $1_refguard(jenv, $input);
}

/* Every generated class stays inside the package and has no finalize(): the
   hand-written layer frees handles explicitly (DLockClient.close()). */
%pragma(java) moduleclassmodifiers="final class"
%pragma(java) jniclassclassmodifiers="final class"
%pragma(java) jniclasscode=%{
  static {
    NativeLoader.load();
  }
%}
%typemap(javaclassmodifiers) SWIGTYPE "final class"
%typemap(javafinalize) SWIGTYPE ""

/* dlock.h supplies the types and the status macros; every wrapped function is
   declared below. */
%rename(NativeClient) dlock_client;
%rename(NativeLock) dlock_lock;
%rename(NativeCancel) dlock_cancel;
/* Before the %import: a rename applies to the declarations read after it. */
%rename(NativeSemaphore) dlock_semaphore;
%rename(NativePermitSemaphore) dlock_permit_semaphore;
%rename(NativeCountDownLatch) dlock_count_down_latch;
%rename(NativeElection) dlock_election;
%import "dlock.h"


/* The status codes as compile-time Java constants of NativeStatus (OK,
   NOT_ACQUIRED, E_INVALID, ...) for io.dlock.DLockStatus and NativeErrors. The
   list and the values come from dlock.h (DLOCK_STATUS_LIST), so nothing is
   restated here. Declared to SWIG only: C++ needs no NativeStatus. */
%javaconst(1);
#define DLOCK_NATIVE_STATUS(name) static const int name = DLOCK_##name;
%nodefaultctor NativeStatus;
%nodefaultdtor NativeStatus;
struct NativeStatus {
  DLOCK_STATUS_LIST(DLOCK_NATIVE_STATUS)
};

/* Receives lost-lock notices; subclassed in Java (SWIG director), so the
   director attaches the core's watchdog thread to the JVM for each call. */
%feature("director") NativeLostCallback;
%typemap(javaclassmodifiers) NativeLostCallback "abstract class"
%inline %{
struct NativeLostCallback {
  virtual ~NativeLostCallback() {}
  virtual void lost(const char *lockName, uint64_t owner, uint64_t token) = 0;
};
%}

%{
namespace dlock_jni {
/* The C callback registered with the core; ctx is the NativeLostCallback. */
static void forwardLost(const char *name, uint64_t owner, uint64_t token, void *ctx) {
  try {
    static_cast<NativeLostCallback *>(ctx)->lost(name, owner, token);
  } catch (...) {
    /* Nothing may unwind into the core's watchdog thread; the Java side
       already reports its own exceptions (LostListenerBridge). */
  }
}
}  // namespace dlock_jni
%}

/* One dlock_lock_inspect() snapshot, read by DLock.inspect() into an immutable
   LockInfo and deleted at once. */
%ignore NativeLockInfo::NativeLockInfo;
%inline %{
class NativeLockInfo {
 public:
  explicit NativeLockInfo(dlock_lock *lock) {
    dlock_lock_info_init(&info_);
    dlock_jni::check(dlock_lock_inspect(lock, &info_, &holders_));
  }
  ~NativeLockInfo() { dlock_lock_holders_free(holders_); }
  int64_t ttlMs() const { return info_.ttl_ms; }
  bool hasLastToken() const { return info_.has_last_token != 0; }
  uint64_t lastToken() const { return info_.last_token; }
  int holderCount() const { return static_cast<int>(info_.holder_count); }
  const char *holderId(int index) const {
    const char *id = nullptr;
    dlock_jni::check(dlock_lock_holders_get(holders_, static_cast<size_t>(index), &id, nullptr, nullptr));
    return id;
  }
  int64_t holderHoldCount(int index) const {
    int64_t count = 0;
    dlock_jni::check(dlock_lock_holders_get(holders_, static_cast<size_t>(index), nullptr, nullptr, &count));
    return count;
  }

 private:
  NativeLockInfo(const NativeLockInfo &);
  NativeLockInfo &operator=(const NativeLockInfo &);
  dlock_lock_info info_;
  dlock_lock_holders *holders_ = nullptr;
};
%}

/* Receives the core's log records (dlock_set_log_handler); subclassed in
   Java (LogBridge), so the director attaches the core's threads to the JVM. */
%feature("director") NativeLogHandler;
%typemap(javaclassmodifiers) NativeLogHandler "abstract class"
%inline %{
struct NativeLogHandler {
  virtual ~NativeLogHandler() {}
  virtual void log(int level, const char *message) = 0;
};
%}

%{
namespace dlock_jni {
/* The C log handler registered with the core; user_data is the NativeLogHandler. */
static void forwardLog(int level, const char *message, void *handler) {
  try {
    static_cast<NativeLogHandler *>(handler)->log(level, message);
  } catch (...) {
    /* Nothing may unwind into the core's threads. */
  }
}
}  // namespace dlock_jni
%}

%inline %{
/* The process-wide log handler: every level goes to `handler` (the Java
   logger filters), or logging stops when it is null. */
void setLogHandler(NativeLogHandler *handler) {
  dlock_jni::check(dlock_set_log_handler(handler ? dlock_jni::forwardLog : nullptr, handler,
                                         DLOCK_LOG_DEBUG));
}
%}

/* The log levels, as compile-time Java constants for LogBridge. */
%nodefaultctor NativeLogLevel;
%nodefaultdtor NativeLogLevel;
%inline %{
struct NativeLogLevel {
  static const int LOG_ERROR = DLOCK_LOG_ERROR;
  static const int LOG_WARN = DLOCK_LOG_WARN;
  static const int LOG_INFO = DLOCK_LOG_INFO;
  static const int LOG_DEBUG = DLOCK_LOG_DEBUG;
};
%}

/* A client's counters (dlock_client_stats without its size field), copied
   out by NativeClient.readStats(); DLockStats is the public, immutable form. */
%immutable;
%inline %{
struct NativeStats {
  uint64_t grants;
  uint64_t reentries;
  uint64_t waits;
  uint64_t handoffs;
  uint64_t renewals;
  uint64_t renewal_round_trips;
  uint64_t locks_lost;
  uint64_t reconnects;
  uint64_t transient_retries;
  int64_t wait_p50_us;
  int64_t wait_p99_us;
  int64_t wait_max_us;
  uint64_t failovers;
  uint64_t expiries;
};
%}
%mutable;
%newobject dlock_client::readStats;

/* Asynchronous calls report to a NativeDoneCallback (a SWIG director,
   subclassed once in Java: NativeCompletions) with the call id the Java side
   chose; the Java side finds the waiting future by that id. */
%feature("director") NativeDoneCallback;
%typemap(javaclassmodifiers) NativeDoneCallback "abstract class"
%inline %{
struct NativeDoneCallback {
  virtual ~NativeDoneCallback() {}
  /* expiry: a DLOCK_E_LOST that dlock_last_error_is_expiry() called an expiry;
     grantedPermitId: a leased permit's id (its acquire granted), else null. */
  virtual void done(int64_t call, int status, uint64_t token, const char *grantedPermitId, const char *message,
                    bool expiry) = 0;
};
%}

%{
namespace dlock_jni {
/* The ctx of one asynchronous call: where its outcome goes. */
struct PendingCall {
  NativeDoneCallback *callback;
  int64_t call;
};

/* Hands one outcome to Java and frees the call's ctx; runs once per call. */
static void deliver(PendingCall *pending, int status, uint64_t token, const char *permit_id, const char *message) {
  try {
    /* Read on the thread the call failed on, as dlock_done_fn allows. */
    const bool expiry = status < 0 && dlock_last_error_is_expiry() == 1;
    pending->callback->done(pending->call, status, token, permit_id, message, expiry);
  } catch (...) {
    /* Nothing may unwind into the core's async thread; the Java side
       handles its own exceptions (NativeCompletions). */
  }
  delete pending;
}

/* The dlock_done_fn of every asynchronous call. */
static void forwardDone(int status, uint64_t token, const char *message, void *ctx) {
  deliver(static_cast<PendingCall *>(ctx), status, token, nullptr, message);
}

/* The dlock_permit_done_fn of a leased permit's acquire. */
static void forwardPermitDone(int status, const char *permit_id, const char *message, void *ctx) {
  deliver(static_cast<PendingCall *>(ctx), status, 0, status == DLOCK_OK ? permit_id : nullptr, message);
}

/* Starts one asynchronous call with `start(done, ctx)`; throws its status
   when it did not start (then `done` is never called). */
template <typename Start, typename Done = dlock_done_fn>
static void startAsync(NativeDoneCallback *callback, int64_t call, Start start, Done done = forwardDone) {
  PendingCall *pending = new PendingCall{callback, call};
  int status = start(done, pending);
  if (status != DLOCK_OK) {
    delete pending;
    check(status);
  }
}
}  // namespace dlock_jni
%}

/* Client options for DLockClientBuilder: dlock_client_options with the
   library's defaults; the builder sets only the options it was given. */
%ignore NativeOptions::options;
%inline %{
struct NativeOptions {
  dlock_client_options options;
  NativeOptions() { dlock_client_options_init(&options); }
  void setConnectTimeoutMs(int64_t ms) { options.connect_timeout_ms = ms; }
  void setCommandTimeoutMs(int64_t ms) { options.command_timeout_ms = ms; }
  void setWatchdogTimeoutMs(int64_t ms) { options.watchdog_timeout_ms = ms; }
  void setPoolSize(int size) { options.pool_size = size; }
  void setSyncReplicas(int count) { options.sync_replicas = count; }
  void setSyncTimeoutMs(int64_t ms) { options.sync_timeout_ms = ms; }
};
%}

/* MultiLock and RedLock (dlock_multilock_*, dlock_redlock_*) as one class,
   NativeLockGroup: members are added, then open() makes the group. Every
   method acts for an explicit owner (the Java thread id), as the lock's do.
   Before the struct declarations below (see the SWIG merge note). */
%{
#include <vector>
%}
%inline %{
class NativeLockGroup {
 public:
  explicit NativeLockGroup(bool majority) : majority_(majority) {}
  ~NativeLockGroup() {
    dlock_multilock_free(multi_);
    dlock_redlock_free(red_);
  }
  void add(dlock_lock *lock) { members_.push_back(lock); }
  void open() {
    dlock_jni::check(majority_ ? dlock_redlock_new(members_.data(), members_.size(), &red_)
                               : dlock_multilock_new(members_.data(), members_.size(), &multi_));
    members_.clear();
  }
  /* true: held; false: the wait ran out. cancel may be null. */
  bool acquire(uint64_t owner, int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel) {
    return dlock_jni::check(red_ ? dlock_redlock_acquire_owner(red_, owner, waitMs, leaseMs, cancel, nullptr)
                                 : dlock_multilock_acquire_owner(multi_, owner, waitMs, leaseMs, cancel)) ==
           DLOCK_OK;
  }
  /* The acquire without blocking: the outcome goes to callback.done(call, ...). */
  void acquireAsync(uint64_t owner, int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel,
                    NativeDoneCallback *callback, int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return red_ ? dlock_redlock_acquire_async(red_, owner, waitMs, leaseMs, cancel, done, ctx)
                  : dlock_multilock_acquire_async(multi_, owner, waitMs, leaseMs, cancel, done, ctx);
    });
  }
  void release(uint64_t owner) {
    dlock_jni::check(red_ ? dlock_redlock_release_owner(red_, owner) : dlock_multilock_release_owner(multi_, owner));
  }
  int holdCount(uint64_t owner) {
    int count = 0;
    dlock_jni::check(red_ ? dlock_redlock_hold_count_owner(red_, owner, &count)
                          : dlock_multilock_hold_count_owner(multi_, owner, &count));
    return count;
  }
  /* Held and still valid (not lost, the lease or validity not over). */
  bool isHeld(uint64_t owner) {
    int held = 0;
    dlock_jni::check(red_ ? dlock_redlock_is_held_owner(red_, owner, &held)
                          : dlock_multilock_is_held_owner(multi_, owner, &held));
    return held != 0;
  }
  /* RedLock only: the owner's remaining validity in ms (0 when not held). */
  int64_t validityMs(uint64_t owner) {
    int64_t ms = 0;
    dlock_jni::check(dlock_redlock_validity_owner(red_, owner, &ms));
    return ms;
  }
  void setLostCallback(NativeLostCallback *callback) {
    dlock_lost_fn fn = callback ? dlock_jni::forwardLost : nullptr;
    dlock_jni::check(red_ ? dlock_redlock_set_lost_callback(red_, fn, callback)
                          : dlock_multilock_set_lost_callback(multi_, fn, callback));
  }

 private:
  NativeLockGroup(const NativeLockGroup &);
  NativeLockGroup &operator=(const NativeLockGroup &);
  bool majority_;
  std::vector<dlock_lock *> members_;
  dlock_multilock *multi_ = nullptr;
  dlock_redlock *red_ = nullptr;
};
%}

%nodefaultctor;
%nodefaultdtor;
struct dlock_client {};
struct dlock_lock {};
struct dlock_cancel {};
%clearnodefaultctor;
%clearnodefaultdtor;

%rename(version) dlock_version;
const char *dlock_version(void);

%newobject dlock_client::newLock;
%newobject dlock_client::newFairLock;
%newobject dlock_lock::inspect;
/* Named apart from the C function dlock_cancel_trigger that the wrapper calls. */
%rename(trigger) dlock_cancel::triggerCancel;

%extend dlock_client {
  /* Opens a client with the default options; the URL's query options override them. */
  dlock_client(const char *url) {
    dlock_client *client = nullptr;
    dlock_jni::check(dlock_client_open(url, nullptr, &client));
    return client;
  }
  ~dlock_client() { dlock_client_close($self); }
  /* Static text: "redis". Not named backend(): SWIG would name this body
     dlock_client_backend, the C function it calls. */
  const char *backendName() { return dlock_client_backend($self); }
  dlock_lock *newLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_lock_new($self, name, &lock));
    return lock;
  }
  /* A fair lock: the same handle type, so the same NativeLock calls. */
  dlock_lock *newFairLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_fair_lock_new($self, name, &lock));
    return lock;
  }
  /* A non-reentrant lock: the same handle type too. */
  dlock_lock *newNonReentrantLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_lock_new_nonreentrant($self, name, &lock));
    return lock;
  }
  /* The caller deletes the copy (NativeStats.delete()). */
  NativeStats *readStats() {
    dlock_client_stats stats{};
    stats.size = sizeof stats;
    dlock_jni::check(dlock_client_stats_get($self, &stats));
    return new NativeStats{stats.grants, stats.reentries, stats.waits, stats.handoffs,
                           stats.renewals, stats.renewal_round_trips, stats.locks_lost,
                           stats.reconnects, stats.transient_retries, stats.wait_p50_us,
                           stats.wait_p99_us, stats.wait_max_us, stats.failovers, stats.expiries};
  }
}

%extend dlock_cancel {
  dlock_cancel() {
    dlock_cancel *cancel = nullptr;
    dlock_jni::check(dlock_cancel_new(&cancel));
    return cancel;
  }
  ~dlock_cancel() { dlock_cancel_free($self); }
  void triggerCancel() { dlock_jni::check(dlock_cancel_trigger($self)); }
}

/* Every method acts for an explicit owner (the Java thread id), never for the
   OS thread that happens to run the call. */
%extend dlock_lock {
  ~dlock_lock() { dlock_lock_free($self); }
  /* true: held; false: the wait ran out. cancel may be null. */
  bool acquire(uint64_t owner, int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel) {
    return dlock_jni::check(dlock_lock_acquire_owner($self, owner, waitMs, leaseMs, cancel,
                                                     nullptr)) == DLOCK_OK;
  }
  /* One attempt as the first of a wait that follows: it respects the waiters'
     turn (dlock_lock_try_before_wait_owner), where acquire(owner, 0, ...) barges. */
  bool tryBeforeWait(uint64_t owner, int64_t leaseMs) {
    return dlock_jni::check(dlock_lock_try_before_wait_owner($self, owner, leaseMs, nullptr)) == DLOCK_OK;
  }
  void release(uint64_t owner) { dlock_jni::check(dlock_lock_release_owner($self, owner)); }
  bool forceRelease() {
    int released = 0;
    dlock_jni::check(dlock_lock_force_release_checked($self, &released));
    return released != 0;
  }
  bool isLocked() {
    int locked = 0;
    dlock_jni::check(dlock_lock_is_locked($self, &locked));
    return locked != 0;
  }
  bool isHeld(uint64_t owner) {
    int held = 0;
    dlock_jni::check(dlock_lock_is_held_owner($self, owner, &held));
    return held != 0;
  }
  int holdCount(uint64_t owner) {
    int count = 0;
    dlock_jni::check(dlock_lock_hold_count_owner($self, owner, &count));
    return count;
  }
  /* The owners whose hold was taken through this handle: what freeing it would end. */
  int holdsThrough() {
    int count = 0;
    dlock_jni::check(dlock_lock_holds_through($self, &count));
    return count;
  }
  uint64_t fencingToken(uint64_t owner) {
    uint64_t token = 0;
    dlock_jni::check(dlock_lock_fencing_token_owner($self, owner, &token));
    return token;
  }
  int64_t ttl() {
    int64_t ms = 0;
    dlock_jni::check(dlock_lock_ttl($self, &ms));
    return ms;
  }
  void releaseKeeping(uint64_t owner, int64_t keepMs) {
    dlock_jni::check(dlock_lock_release_keeping_owner($self, owner, keepMs));
  }
  NativeLockInfo *inspect() { return new NativeLockInfo($self); }
  /* This attempt's number, or 0 when maxAttempts were already counted. */
  int64_t countAttempt(const char *periodId, int64_t expireMs, int64_t maxAttempts) {
    int64_t attempt = 0;
    const int status = dlock_jni::check(
        dlock_lock_count_attempt($self, periodId, expireMs, maxAttempts, &attempt));
    return status == DLOCK_OK ? attempt : 0;
  }
  void setLostCallback(NativeLostCallback *callback) {
    dlock_jni::check(dlock_lock_set_lost_callback(
        $self, callback ? dlock_jni::forwardLost : nullptr, callback));
  }
}

/* Asynchronous calls, and extending a fixed lease. */
%extend dlock_lock {
  /* dlock_lock_acquire_async: the outcome goes to callback.done(call, ...). */
  void acquireAsync(uint64_t owner, int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel,
                    NativeDoneCallback *callback, int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return dlock_lock_acquire_async($self, owner, waitMs, leaseMs, cancel, done, ctx);
    });
  }
  /* dlock_lock_release_async: the outcome goes to callback.done(call, ...). */
  void releaseAsync(uint64_t owner, NativeDoneCallback *callback, int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return dlock_lock_release_async($self, owner, done, ctx);
    });
  }
  void extend(uint64_t owner, int64_t leaseMs) {
    dlock_jni::check(dlock_lock_extend_owner($self, owner, leaseMs));
  }
}

%extend dlock_client {
  /* Opens a client with `options`; the URL's query options override them. */
  dlock_client(const char *url, const NativeOptions &options) {
    dlock_client *client = nullptr;
    dlock_jni::check(dlock_client_open(url, &options.options, &client));
    return client;
  }
}

/* ---- Semaphores and the count-down latch (Redisson's RSemaphore,
   RPermitExpirableSemaphore and RCountDownLatch layouts) ---- */

/* Receives lost-permit notices; subclassed in Java (DPermitExpirableSemaphore). */
%feature("director") NativePermitLostCallback;
%typemap(javaclassmodifiers) NativePermitLostCallback "abstract class"
%inline %{
struct NativePermitLostCallback {
  virtual ~NativePermitLostCallback() {}
  virtual void lost(const char *semaphoreName, const char *lostPermitId) = 0;
};
%}

%{
namespace dlock_jni {
/* The C callback registered with the core; ctx is the NativePermitLostCallback. */
static void forwardPermitLost(const char *name, const char *permit_id, void *ctx) {
  try {
    static_cast<NativePermitLostCallback *>(ctx)->lost(name, permit_id);
  } catch (...) {
    /* Nothing may unwind into the core's watchdog thread. */
  }
}
}  // namespace dlock_jni
%}

%nodefaultctor;
%nodefaultdtor;
struct dlock_semaphore {};
struct dlock_permit_semaphore {};
struct dlock_count_down_latch {};
%clearnodefaultctor;
%clearnodefaultdtor;

%newobject dlock_client::newSemaphore;
%newobject dlock_client::newPermitSemaphore;
%newobject dlock_client::newCountDownLatch;

%extend dlock_client {
  dlock_semaphore *newSemaphore(const char *name) {
    dlock_semaphore *semaphore = nullptr;
    dlock_jni::check(dlock_semaphore_new($self, name, &semaphore));
    return semaphore;
  }
  dlock_permit_semaphore *newPermitSemaphore(const char *name) {
    dlock_permit_semaphore *semaphore = nullptr;
    dlock_jni::check(dlock_permit_semaphore_new($self, name, &semaphore));
    return semaphore;
  }
  dlock_count_down_latch *newCountDownLatch(const char *name) {
    dlock_count_down_latch *latch = nullptr;
    dlock_jni::check(dlock_count_down_latch_new($self, name, &latch));
    return latch;
  }
}

/* Method names differ from the C functions SWIG names the wrappers after
   (dlock_semaphore_acquire...), so a wrapper never redeclares one. */
%extend dlock_semaphore {
  ~dlock_semaphore() { dlock_semaphore_free($self); }
  /* true: taken; false: the wait ran out. cancel may be null. */
  bool take(int permits, int64_t waitMs, dlock_cancel *cancel) {
    return dlock_jni::check(dlock_semaphore_acquire($self, permits, waitMs, cancel)) == DLOCK_OK;
  }
  /* take() without blocking: the outcome goes to callback.done(call, ...). */
  void takeAsync(int permits, int64_t waitMs, dlock_cancel *cancel, NativeDoneCallback *callback, int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return dlock_semaphore_acquire_async($self, permits, waitMs, cancel, done, ctx);
    });
  }
  void give(int permits) { dlock_jni::check(dlock_semaphore_release($self, permits)); }
  bool trySetPermits(int permits) {
    int set = 0;
    dlock_jni::check(dlock_semaphore_try_set_permits($self, permits, &set));
    return set != 0;
  }
  int64_t availablePermits() {
    int64_t permits = 0;
    dlock_jni::check(dlock_semaphore_available_permits($self, &permits));
    return permits;
  }
}

%extend dlock_permit_semaphore {
  ~dlock_permit_semaphore() { dlock_permit_semaphore_free($self); }
  /* The permit's id, or null when the wait ran out; the text lives in a
     per-thread buffer that SWIG copies into a Java String at once. */
  const char *acquire(int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel) {
    static thread_local char id[DLOCK_PERMIT_ID_SIZE];
    const int status =
        dlock_jni::check(dlock_permit_semaphore_acquire($self, waitMs, leaseMs, cancel, id, sizeof id));
    return status == DLOCK_OK ? id : nullptr;
  }
  /* acquire() without blocking: callback.done(call, ...) gets the permit's id. */
  void acquireAsync(int64_t waitMs, int64_t leaseMs, dlock_cancel *cancel, NativeDoneCallback *callback,
                    int64_t call) {
    dlock_jni::startAsync(
        callback, call,
        [&](dlock_permit_done_fn done, void *ctx) {
          return dlock_permit_semaphore_acquire_async($self, waitMs, leaseMs, cancel, done, ctx);
        },
        dlock_jni::forwardPermitDone);
  }
  void releasePermit(const char *permitId) {
    dlock_jni::check(dlock_permit_semaphore_release($self, permitId));
  }
  bool tryRelease(const char *permitId) {
    int released = 0;
    dlock_jni::check(dlock_permit_semaphore_try_release($self, permitId, &released));
    return released != 0;
  }
  bool trySetPermits(int permits) {
    int set = 0;
    dlock_jni::check(dlock_permit_semaphore_try_set_permits($self, permits, &set));
    return set != 0;
  }
  int64_t availablePermits() {
    int64_t permits = 0;
    dlock_jni::check(dlock_permit_semaphore_available_permits($self, &permits));
    return permits;
  }
  void setLostCallback(NativePermitLostCallback *callback) {
    dlock_jni::check(dlock_permit_semaphore_set_lost_callback(
        $self, callback ? dlock_jni::forwardPermitLost : nullptr, callback));
  }
}

%extend dlock_count_down_latch {
  ~dlock_count_down_latch() { dlock_count_down_latch_free($self); }
  bool trySetCount(int64_t count) {
    int set = 0;
    dlock_jni::check(dlock_count_down_latch_try_set_count($self, count, &set));
    return set != 0;
  }
  void countDown() { dlock_jni::check(dlock_count_down_latch_count_down($self)); }
  int64_t getCount() {
    int64_t count = 0;
    dlock_jni::check(dlock_count_down_latch_get_count($self, &count));
    return count;
  }
  /* true: open; false: the wait ran out. cancel may be null. */
  bool awaitZero(int64_t waitMs, dlock_cancel *cancel) {
    return dlock_jni::check(dlock_count_down_latch_await($self, waitMs, cancel)) == DLOCK_OK;
  }
  /* awaitZero() without blocking: the outcome goes to callback.done(call, ...). */
  void awaitZeroAsync(int64_t waitMs, dlock_cancel *cancel, NativeDoneCallback *callback, int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return dlock_count_down_latch_await_async($self, waitMs, cancel, done, ctx);
    });
  }
}

/* The read-write lock: each side is a dlock_lock (NativeLock). */
%newobject dlock_client::newReadLock;
%newobject dlock_client::newWriteLock;
%extend dlock_client {
  dlock_lock *newReadLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_rwlock_read_lock($self, name, &lock));
    return lock;
  }
  dlock_lock *newWriteLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_rwlock_write_lock($self, name, &lock));
    return lock;
  }
}
%extend dlock_lock {
  /* dlock_rwlock_set_writer_preference: a write side's handle only. */
  void setWriterPreference(bool enabled) {
    dlock_jni::check(dlock_rwlock_set_writer_preference($self, enabled ? 1 : 0));
  }
}

/* ---- Leader election (dlock_election_*): NativeElection, a candidate ---- */

/* A leader's value, from the core to Java as UTF-8 (a return value, matched
   by the method's name; the observer's goes through the directorin typemap). */
%typemap(out, noblock=1) const char *leaderValue {
  $result = dlock_jni::javaString(jenv, $1 ? $1 : "");
  if (!$result) return $null;
}

/* Receives the leaders an observer follows (dlock_election_observe);
   subclassed in Java (LeaderFanOut), so the director attaches the core's
   observer thread to the JVM. */
%feature("director") NativeLeaderCallback;
%typemap(javaclassmodifiers) NativeLeaderCallback "abstract class"
%inline %{
struct NativeLeaderCallback {
  virtual ~NativeLeaderCallback() {}
  virtual void leader(uint64_t term, int64_t sinceMs, const char *leaderValue) = 0;
};
%}

%{
namespace dlock_jni {
/* The dlock_leader_fn registered with the core; ctx is the NativeLeaderCallback. */
static void forwardLeader(const dlock_leader *leader, void *ctx) {
  try {
    static_cast<NativeLeaderCallback *>(ctx)->leader(leader->term, leader->since_ms, leader->value);
  } catch (...) {
    /* Nothing may unwind into the core's observer thread; the Java side
       reports its own exceptions (LeaderFanOut). */
  }
}
}  // namespace dlock_jni
%}

/* One dlock_election_leader() answer, read by DElection.leader() into a
   Leader and deleted at once. */
%ignore NativeLeader::NativeLeader;
%inline %{
class NativeLeader {
 public:
  explicit NativeLeader(dlock_election *election) {
    present_ = dlock_jni::check(dlock_election_leader(election, &leader_)) == DLOCK_OK;
  }
  /* false: nobody leads. */
  bool present() const { return present_; }
  uint64_t term() const { return leader_.term; }
  int64_t sinceMs() const { return leader_.since_ms; }
  const char *leaderValue() const { return leader_.value; }

 private:
  NativeLeader(const NativeLeader &);
  NativeLeader &operator=(const NativeLeader &);
  dlock_leader leader_{};
  bool present_ = false;
};
%}

%nodefaultctor;
%nodefaultdtor;
struct dlock_election {};
%clearnodefaultctor;
%clearnodefaultdtor;

%newobject dlock_client::newElection;
%newobject dlock_election::readLeader;

%extend dlock_client {
  /* A new candidate: every call makes another. */
  dlock_election *newElection(const char *name) {
    dlock_election *election = nullptr;
    dlock_jni::check(dlock_election_new($self, name, &election));
    return election;
  }
}

/* Method names differ from the C functions SWIG names the wrappers after
   (dlock_election_campaign...), so a wrapper never redeclares one. */
%extend dlock_election {
  ~dlock_election() { dlock_election_free($self); }
  /* The term once leader; -1 when the wait ran out. cancel may be null. */
  int64_t runCampaign(const char *value, int64_t waitMs, dlock_cancel *cancel) {
    uint64_t term = 0;
    const int status = dlock_jni::check(dlock_election_campaign_cancellable($self, value, waitMs, cancel, &term));
    return status == DLOCK_OK ? static_cast<int64_t>(term) : -1;
  }
  /* runCampaign() without blocking: callback.done(call, ...) gets the term as its token. */
  void campaignAsync(const char *value, int64_t waitMs, dlock_cancel *cancel, NativeDoneCallback *callback,
                     int64_t call) {
    dlock_jni::startAsync(callback, call, [&](dlock_done_fn done, void *ctx) {
      return dlock_election_campaign_async($self, value, waitMs, cancel, done, ctx);
    });
  }
  void stepDown() { dlock_jni::check(dlock_election_resign($self)); }
  void publish(const char *value) { dlock_jni::check(dlock_election_proclaim($self, value)); }
  /* The caller deletes the answer (NativeLeader.delete()). */
  NativeLeader *readLeader() { return new NativeLeader($self); }
  bool leads() {
    int leads = 0;
    dlock_jni::check(dlock_election_is_leader($self, &leads));
    return leads != 0;
  }
  uint64_t currentTerm() {
    uint64_t term = 0;
    dlock_jni::check(dlock_election_term($self, &term));
    return term;
  }
  void setLostCallback(NativeLostCallback *callback) {
    dlock_jni::check(dlock_election_set_lost_callback(
        $self, callback ? dlock_jni::forwardLost : nullptr, callback));
  }
  /* Starts the core's observer, reporting to `callback`; null stops it. */
  void follow(NativeLeaderCallback *callback) {
    dlock_jni::check(dlock_election_observe($self, callback ? dlock_jni::forwardLeader : nullptr, callback));
  }
}
