-- Takes ARGV[1] permits of the semaphore KEYS[1] (Redisson's RSemaphore: a
-- string holding the available count) when that many are available.
--
-- KEYS[2] is the caller's latch: the id ARGV[2] of its last grant, kept for
-- ARGV[3] ms, so a retry after a lost reply answers 1 again instead of taking
-- the permits twice. One key per (client, owner), overwritten.
--
-- Returns 1 taken, 0 not enough permits (nothing touched).
local count, latch = KEYS[1], KEYS[2]
local permits, request, latch_ms = ARGV[1], ARGV[2], ARGV[3]

if redis.call('get', latch) == request then
  return 1
end
local value = redis.call('get', count)
if value ~= false and tonumber(value) >= tonumber(permits) then
  redis.call('decrby', count, permits)
  redis.call('set', latch, request, 'px', latch_ms)
  return 1
end
return 0
