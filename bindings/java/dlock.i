/*
 * SWIG interface: the C ABI of include/dlock.h as package-private classes of
 * io.dlock (NativeClient, NativeLock, NativeCancel, NativeLostCallback). The
 * public API is the hand-written layer beside them (DLockClient, DLock, ...);
 * nothing generated here is visible outside the package.
 */
%module(directors="1") DLockNative

%{
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

/* Raises the Java exception for `status`, built by io.dlock.NativeErrors (the
   one status -> exception table), with the core's message for this thread. */
static void throwJava(JNIEnv *jenv, int status) {
  jclass errors = jenv->FindClass("io/dlock/NativeErrors");
  if (!errors) return; /* NoClassDefFoundError is pending */
  jmethodID toException = jenv->GetStaticMethodID(
      errors, "toException", "(ILjava/lang/String;)Ljava/lang/RuntimeException;");
  if (!toException) return;
  jstring message = jenv->NewStringUTF(dlock_last_error());
  if (!message) return;
  jobject exception = jenv->CallStaticObjectMethod(errors, toException, (jint)status, message);
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
%import "dlock.h"


/* The status codes, as compile-time Java constants for io.dlock.DLockStatus
   (values come from the header's macros). */
%javaconst(1);
%nodefaultctor NativeStatus;
%nodefaultdtor NativeStatus;
%inline %{
struct NativeStatus {
  static const int OK = DLOCK_OK;
  static const int NOT_ACQUIRED = DLOCK_NOT_ACQUIRED;
  static const int INVALID = DLOCK_E_INVALID;
  static const int CONNECTION = DLOCK_E_CONNECTION;
  static const int NOT_OWNER = DLOCK_E_NOT_OWNER;
  static const int LOST = DLOCK_E_LOST;
  static const int PROTOCOL = DLOCK_E_PROTOCOL;
  static const int AUTH = DLOCK_E_AUTH;
  static const int INTERRUPTED = DLOCK_E_INTERRUPTED;
  static const int CLOSED = DLOCK_E_CLOSED;
  static const int NOMEM = DLOCK_E_NOMEM;
  static const int UNSUPPORTED = DLOCK_E_UNSUPPORTED;
};
%}

/* Receives lost-lock notices; subclassed in Java (SWIG director), so the
   director attaches the core's watchdog thread to the JVM for each call. */
%feature("director") NativeLostCallback;
%typemap(javaclassmodifiers) NativeLostCallback "abstract class"
%inline %{
struct NativeLostCallback {
  virtual ~NativeLostCallback() {}
  virtual void lost(const char *name, uint64_t owner, uint64_t token) = 0;
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

/* Asynchronous calls report to a NativeDoneCallback (a SWIG director,
   subclassed once in Java: NativeCompletions) with the call id the Java side
   chose; the Java side finds the waiting future by that id. */
%feature("director") NativeDoneCallback;
%typemap(javaclassmodifiers) NativeDoneCallback "abstract class"
%inline %{
struct NativeDoneCallback {
  virtual ~NativeDoneCallback() {}
  virtual void done(int64_t call, int status, uint64_t token, const char *message) = 0;
};
%}

%{
namespace dlock_jni {
/* The ctx of one asynchronous call: where its outcome goes. */
struct PendingCall {
  NativeDoneCallback *callback;
  int64_t call;
};

/* The dlock_done_fn of every asynchronous call; runs once per call. */
static void forwardDone(int status, uint64_t token, const char *message, void *ctx) {
  PendingCall *pending = static_cast<PendingCall *>(ctx);
  try {
    pending->callback->done(pending->call, status, token, message);
  } catch (...) {
    /* Nothing may unwind into the core's async thread; the Java side
       handles its own exceptions (NativeCompletions). */
  }
  delete pending;
}

/* Starts one asynchronous call with `start(done, ctx)`; throws its status
   when it did not start (then `done` is never called). */
template <typename Start>
static void startAsync(NativeDoneCallback *callback, int64_t call, Start start) {
  PendingCall *pending = new PendingCall{callback, call};
  int status = start(forwardDone, pending);
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
  dlock_lock *newLock(const char *name) {
    dlock_lock *lock = nullptr;
    dlock_jni::check(dlock_lock_new($self, name, &lock));
    return lock;
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
  void release(uint64_t owner) { dlock_jni::check(dlock_lock_release_owner($self, owner)); }
  void forceRelease() { dlock_jni::check(dlock_lock_force_release($self)); }
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
