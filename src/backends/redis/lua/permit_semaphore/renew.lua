-- Extends the lease of the permit ARGV[2] in the timeout ZSET KEYS[1] to
-- ARGV[1] ms from the server's clock, only while its lease has not ended: a
-- permit past its lease may be reclaimed by any acquire at any moment, so it
-- is lost, and a renewal never resurrects it.
-- Returns 1 renewed, 0 the permit is gone or expired.
local timeouts, lease_ms, id = KEYS[1], tonumber(ARGV[1]), ARGV[2]

local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local score = redis.call('zscore', timeouts, id)
if score and tonumber(score) > now then
  redis.call('zadd', timeouts, 'XX', now + lease_ms, id)
  return 1
end
return 0
