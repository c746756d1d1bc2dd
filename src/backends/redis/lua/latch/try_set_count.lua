-- Sets the latch KEYS[1] to ARGV[1] when it does not exist, and publishes 1
-- (Redisson's "new count" message) on its channel KEYS[2], as Redisson's
-- RCountDownLatch.trySetCount does. A new count clears the "opened" marker
-- KEYS[3] of the previous round (see count_down.lua).
-- Returns 1 set, 0 it existed (untouched).
local count, channel, opened, value = KEYS[1], KEYS[2], KEYS[3], ARGV[1]

if redis.call('exists', count) == 1 then
  return 0
end
redis.call('set', count, value)
redis.call('del', opened)
redis.call('publish', channel, 1)
return 1
