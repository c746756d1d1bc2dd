-- Returns ARGV[1] permits to the semaphore KEYS[1] and publishes the new
-- available count on its channel KEYS[2], as Redisson's release does (its
-- waiters wake on any message and try again).
--
-- KEYS[3] is the caller's latch, as in acquire.lua: a retry of the release
-- ARGV[2] after a lost reply answers 1 without adding the permits twice.
-- Returns 1.
local count, channel, latch = KEYS[1], KEYS[2], KEYS[3]
local permits, request, latch_ms = ARGV[1], ARGV[2], ARGV[3]

if redis.call('get', latch) == request then
  return 1
end
local value = redis.call('incrby', count, permits)
redis.call('publish', channel, value)
redis.call('set', latch, request, 'px', latch_ms)
return 1
