-- Releases the permit ARGV[1] of the semaphore KEYS[1]: removes it from the
-- timeout ZSET KEYS[3], returns its permit and publishes the new count on
-- KEYS[2], as Redisson's tryRelease does (an id whose lease had ended is
-- removed and returned too, but answered 0: the holder had lost it).
--
-- KEYS[4] is the permit's latch: the id ARGV[2] of the release that let it
-- go, kept ARGV[3] ms, so a retry after a lost reply answers 1 again.
-- Returns 1 released, 0 the permit was not held (gone, or its lease ended).
local count, channel, timeouts, latch = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, request, latch_ms = ARGV[1], ARGV[2], ARGV[3]

if redis.call('get', latch) == request then
  return 1
end
local expire = redis.call('zscore', timeouts, id)
if not expire then
  return 0
end
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('zrem', timeouts, id)
local value = redis.call('incrby', count, 1)
redis.call('publish', channel, value)
if tonumber(expire) <= now then
  return 0
end
redis.call('set', latch, request, 'px', latch_ms)
return 1
