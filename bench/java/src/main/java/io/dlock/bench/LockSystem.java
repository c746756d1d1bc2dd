package io.dlock.bench;

import io.dlock.DLockClient;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** A client of one of the compared libraries; both hand out java.util.concurrent Locks. */
interface LockSystem extends AutoCloseable {
  String DLOCK = "dlock";
  /** Redisson with its replica-sync check off, as fits a single node. */
  String REDISSON = "redisson";
  /** Redisson with its defaults (checkLockSyncedSlaves=true). */
  String REDISSON_DEFAULTS = "redisson-defaults";
  /** dlock's fair lock (getFairLock). */
  String DLOCK_FAIR = "dlock-fair";
  /** Redisson's RFairLock, replica-sync check off as for REDISSON. */
  String REDISSON_FAIR = "redisson-fair";

  Lock lock(String name);

  @Override
  void close();

  static LockSystem open(String kind, String url) {
    switch (kind) {
      case DLOCK:
      case DLOCK_FAIR: {
        DLockClient client = DLockClient.connect(url);
        boolean fair = kind.equals(DLOCK_FAIR);
        return new LockSystem() {
          @Override
          public Lock lock(String name) {
            return fair ? client.getFairLock(name) : client.getLock(name);
          }

          @Override
          public void close() {
            client.close();
          }
        };
      }
      case REDISSON:
      case REDISSON_DEFAULTS:
      case REDISSON_FAIR: {
        Config config = redissonConfig(url);
        if (!kind.equals(REDISSON_DEFAULTS)) {
          config.setCheckLockSyncedSlaves(false);
        }
        RedissonClient client = Redisson.create(config);
        boolean fair = kind.equals(REDISSON_FAIR);
        return new LockSystem() {
          @Override
          public Lock lock(String name) {
            return fair ? client.getFairLock(name) : client.getLock(name);
          }

          @Override
          public void close() {
            client.shutdown();
          }
        };
      }
      default:
        throw new IllegalArgumentException("unknown lock system " + kind);
    }
  }

  /**
   * Redisson's configuration for a dlock URL: one node in useSingleServer(), several
   * (redis://host:port,host:port,...) as the seeds of useClusterServers().
   */
  static Config redissonConfig(String url) {
    Config config = new Config();
    if (!url.contains(",")) {
      config.useSingleServer().setAddress(url);
      return config;
    }
    String scheme = url.substring(0, url.indexOf("://") + 3);
    for (String node : url.substring(scheme.length()).split(",")) {
      config.useClusterServers().addNodeAddress(scheme + node);
    }
    return config;
  }
}
