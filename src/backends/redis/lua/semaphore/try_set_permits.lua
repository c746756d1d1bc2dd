-- Sets the semaphore KEYS[1] to ARGV[1] available permits when it does not
-- exist yet, and publishes the count on KEYS[2] (Redisson's trySetPermits).
-- Returns 1 set, 0 it existed (untouched).
local count, channel, permits = KEYS[1], KEYS[2], ARGV[1]

if redis.call('exists', count) == 1 then
  return 0
end
redis.call('set', count, permits)
redis.call('publish', channel, permits)
return 1
