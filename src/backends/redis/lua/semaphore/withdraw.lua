-- Withdraws the acquire ARGV[2] of ARGV[1] permits of the semaphore KEYS[1],
-- which failed on the client but may run on the server: when it ran, its
-- permits are given back (and the new count published on KEYS[2]); when it
-- has not, it is recorded withdrawn in the caller's request record KEYS[3]
-- for ARGV[3] ms, so that it takes nothing if it runs later (requests.lua).
-- Returns 1 when permits were given back, else 0.
local count, channel, record = KEYS[1], KEYS[2], KEYS[3]
local permits, request, window = ARGV[1], ARGV[2], ARGV[3]

local state = request_state(record, request)
if state == 'withdrawn' or state == 'settled' then
  return 0
end
record_request(record, request, 'withdrawn', window)
-- Permits taken from a key that vanished since went with it.
if state ~= 'applied' or redis.call('exists', count) == 0 then
  return 0
end
local value = redis.call('incrby', count, permits)
redis.call('publish', channel, value)
return 1
