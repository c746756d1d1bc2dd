-- Releases the lock KEYS[1] held by the owner field ARGV[1]: deletes it and
-- publishes 0 on the wake-up channel KEYS[2], as Redisson's unlock does.
-- KEYS[3] is this request's latch: it records the outcome for ARGV[2] ms so a
-- retry after a lost reply answers the same instead of "not owner".
--
-- Returns 1 released, 0 the owner does not hold it (nothing touched).
local lock, channel, latch = KEYS[1], KEYS[2], KEYS[3]
local owner, latch_ms = ARGV[1], ARGV[2]

local done = redis.call('get', latch)
if done then
  return tonumber(done)
end
if redis.call('hexists', lock, owner) == 0 then
  return 0
end
redis.call('del', lock)
redis.call('publish', channel, 0)
redis.call('set', latch, 1, 'px', latch_ms)
return 1
