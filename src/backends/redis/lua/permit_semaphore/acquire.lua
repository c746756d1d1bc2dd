-- Takes one permit of the semaphore KEYS[1] (Redisson's
-- RPermitExpirableSemaphore: a string holding the available count, and the
-- ZSET KEYS[2] of taken permit ids scored by the epoch ms their lease ends)
-- for the id ARGV[1], leased ARGV[2] ms from the server's clock.
--
-- Expired ids are reclaimed first (their holders crashed or were paused past
-- the lease): removed, their permits returned and the new count published on
-- KEYS[3], as Redisson's acquire does; Redisson scores with its own clock,
-- which on the same host is the server's.
--
-- KEYS[4] is the permit's request record (requests.lua, put before this
-- script) and ARGV[3] the acquire's request id: an acquire the client
-- withdrew (withdraw.lua) after it failed grants nothing when it runs late.
--
-- Returns {1} granted (also when ARGV[1] already holds a permit: a retry
-- after a lost reply takes no second permit), or {0, ms} when none is free:
-- ms until the earliest lease ends, -1 when no lease will (Redisson's
-- permits without a lease are scored 922337203685477).
local count, timeouts, channel, record = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, lease_ms, request = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local never = 922337203685477

if request_state(record, request) == 'withdrawn' then
  return {0, -1}
end
if redis.call('zscore', timeouts, id) then
  return {1}
end
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expired = redis.call('zrangebyscore', timeouts, 0, now)
if #expired > 0 then
  redis.call('zrem', timeouts, unpack(expired))
  local value = redis.call('incrby', count, #expired)
  if value > 0 then
    redis.call('publish', channel, value)
  end
end
local value = redis.call('get', count)
if value ~= false and tonumber(value) >= 1 then
  redis.call('decrby', count, 1)
  redis.call('zadd', timeouts, now + lease_ms, id)
  local ttl = redis.call('pttl', count)
  if ttl > 0 then
    redis.call('pexpire', timeouts, ttl)
  end
  return {1}
end
local first = redis.call('zrange', timeouts, 0, 0, 'WITHSCORES')
if first[2] ~= nil and tonumber(first[2]) < never then
  return {0, math.max(tonumber(first[2]) - now, 1)}
end
return {0, -1}
