package io.dlock;

/**
 * The SWIG director the core calls back on a lost hold. One per DLock,
 * registered once; listeners are swapped on the Java side only, so the native
 * side never calls a callback that is being freed.
 */
final class LostListenerBridge extends NativeLostCallback {
  private static final System.Logger LOG = System.getLogger("io.dlock");

  private volatile LockLostListener listener;

  void setListener(LockLostListener listener) {
    this.listener = listener;
  }

  @Override
  public void lost(String name, long owner, long token) {
    LockLostListener current = listener;
    if (current == null) {
      return;
    }
    try {
      current.lockLost(name, owner, token);
    } catch (Throwable thrown) {
      // Nothing may propagate into the native watchdog thread, nor reach an
      // uncaught-exception handler that would end the process.
      LOG.log(System.Logger.Level.ERROR,
          "dlock: the lost-lock listener of '" + name + "' threw", thrown);
    }
  }
}
