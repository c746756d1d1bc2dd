-- Counts the latch KEYS[1] down by one; at zero it is deleted and 0
-- (Redisson's "zero count" message) is published on KEYS[2], which wakes
-- every waiter, as in Redisson's RCountDownLatch.countDown.
--
-- KEYS[3] is the caller's request record (requests.lua, put before this
-- script): a retry of the request ARGV[1], after a lost reply or a failure the
-- client finishes (recorded ARGV[2] ms), does not count down twice.
-- KEYS[4] is the "opened" marker, set for ARGV[3] ms when the count reaches
-- zero: it tells a waiter that missed the message that the latch was counted
-- down, not wiped (a restart without persistence, a failover that lost it).
-- Returns the count after this call (0 when the latch is open).
local count, channel, record, opened = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local request, window, opened_ms = ARGV[1], ARGV[2], ARGV[3]

if request_state(record, request) then
  return math.max(tonumber(redis.call('get', count) or '0'), 0)
end
local value = redis.call('decr', count)
if value <= 0 then
  redis.call('del', count)
end
if value == 0 then
  redis.call('set', opened, '1', 'px', opened_ms)
  redis.call('publish', channel, 0)
end
record_request(record, request, 'applied', window)
return math.max(value, 0)
