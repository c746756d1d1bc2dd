-- Redisson's RLock release, verbatim: the script of RedissonLock.unlockInnerAsync
-- in redisson/redisson 4.7.0 (master 66863978, 2026-08-21), laid out one
-- statement per line. KEYS = the lock name, its channel
-- redisson_lock__channel:{name}, the latch redisson_unlock_latch:{name}:<request>;
-- ARGV = the unlock message 0, the lease ms, the owner field, the publish
-- command ("publish"), the latch's life in ms. Returns 1 released, 0 still
-- held (a re-entry counted down), nil not the owner. Redisson then sends an
-- asynchronous DEL of the latch, which the benchmark leaves out.
local val = redis.call('get', KEYS[3]);
if val ~= false then
return tonumber(val);
end;
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then
return nil;
end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then
redis.call('pexpire', KEYS[1], ARGV[2]);
redis.call('set', KEYS[3], 0, 'px', ARGV[5]);
return 0;
else
redis.call('del', KEYS[1]);
redis.call(ARGV[4], KEYS[2], ARGV[1]);
redis.call('set', KEYS[3], 1, 'px', ARGV[5]);
return 1;
end;
