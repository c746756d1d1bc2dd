-- Redisson's RLock acquire, verbatim: the script of RedissonLock.tryLockInnerAsync
-- in redisson/redisson 4.7.0 (master 66863978, 2026-08-21), laid out one
-- statement per line. KEYS[1] = the lock name; ARGV = lease ms, the owner
-- field "<client-uuid>:<thread-id>". Returns nil when granted, else the PTTL.
if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
redis.call('hincrby', KEYS[1], ARGV[2], 1);
redis.call('pexpire', KEYS[1], ARGV[1]);
return nil;
end;
return redis.call('pttl', KEYS[1]);
