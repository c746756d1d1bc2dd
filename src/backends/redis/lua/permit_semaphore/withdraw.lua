-- Withdraws the acquire ARGV[2] of the permit ARGV[1] of the semaphore
-- KEYS[1], which failed on the client but may run on the server: when it was
-- granted, the permit is removed from the timeout ZSET KEYS[3] and returned
-- (the new count published on KEYS[2]); either way the acquire is recorded
-- withdrawn in the permit's request record KEYS[4] for ARGV[3] ms, so that it
-- grants nothing if it runs later (requests.lua).
-- Returns 1 when a permit was returned, else 0.
local count, channel, timeouts, record = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, request, window = ARGV[1], ARGV[2], ARGV[3]

record_request(record, request, 'withdrawn', window)
if not redis.call('zscore', timeouts, id) then
  return 0
end
redis.call('zrem', timeouts, id)
local value = redis.call('incrby', count, 1)
redis.call('publish', channel, value)
return 1
