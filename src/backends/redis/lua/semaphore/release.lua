-- Returns ARGV[1] permits to the semaphore KEYS[1] and publishes the new
-- available count on its channel KEYS[2], as Redisson's release does (its
-- waiters wake on any message and try again).
--
-- KEYS[3] is the caller's request record, as in acquire.lua: a retry of the
-- release ARGV[2] (after a lost reply, or a failure the client finishes)
-- answers 1 without adding the permits twice.
-- ARGV[4] is 1 when the caller took these permits: if the semaphore's key is
-- gone (a restart without persistence, a failover) they were lost with it,
-- and adding them would make a semaphore of that many permits that
-- try_set_permits could no longer repair: nothing is touched, and 2 says so.
-- Returns 1 released, 2 lost.
local count, channel, record = KEYS[1], KEYS[2], KEYS[3]
local permits, request, window, taken = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

if request_state(record, request) then
  return 1
end
if taken == '1' and redis.call('exists', count) == 0 then
  return 2
end
local value = redis.call('incrby', count, permits)
redis.call('publish', channel, value)
record_request(record, request, 'applied', window)
return 1
