-- Releases the fair lock held by the owner field ARGV[1] and, in the same
-- script, grants it to the head of the queue (woken alone on its channel,
-- ARGV[4] .. field); with nobody waiting the lock is deleted and 0 published
-- on Redisson's channel KEYS[6], as RLock's unlock does.
--
-- KEYS[5] is the owner's latch, as in the reentrant lock's release.lua: the
-- id ARGV[3] of its last release, kept ARGV[2] ms, so a retry after a lost
-- reply answers the same (hold_checks.lua, put before this script, tells a
-- later id). KEYS[7] is the owner's grant key (tokens.lua): it
-- goes with the hold. Returns 1 released, 0 the owner does not hold it.
--
-- A release that finds nothing still writes the latch and takes the owner
-- out of the queue: it is the withdrawal of an acquire that failed on the
-- client (acquire.lua refuses an attempt older than the latch), and the owner
-- that asked for it waits no more.
local latch, channel, grant = KEYS[5], KEYS[6], KEYS[7]
local field, latch_ms, request, wake_prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

if already_released(latch, request) then
  return 1
end
if redis.call('hexists', lock, field) == 0 then
  leave_queue(field)
  redis.pcall('set', latch, request, 'px', latch_ms)
  return 0
end
pass_on(server_clock_us(), wake_prefix, channel)
redis.call('del', grant)
redis.call('set', latch, request, 'px', latch_ms)
return 1
