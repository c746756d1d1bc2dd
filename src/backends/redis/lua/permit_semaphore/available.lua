-- The available permits of the semaphore KEYS[1], after reclaiming the ids
-- of the timeout ZSET KEYS[2] whose lease ended (publishing the new count on
-- KEYS[3]), as Redisson's availablePermits does. Returns the count (0 when
-- the semaphore does not exist).
local count, timeouts, channel = KEYS[1], KEYS[2], KEYS[3]

local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expired = redis.call('zrangebyscore', timeouts, 0, now)
if #expired > 0 then
  redis.call('zrem', timeouts, unpack(expired))
  local value = redis.call('incrby', count, #expired)
  if value > 0 then
    redis.call('publish', channel, value)
  end
  return value
end
return tonumber(redis.call('get', count) or '0')
