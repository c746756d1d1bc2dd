-- Releases the lock KEYS[1] held by the owner field ARGV[1]: deletes it and
-- publishes 0 on the wake-up channel KEYS[2], as Redisson's unlock does.
--
-- KEYS[3] is the owner's latch: the id ARGV[3] of its last release, kept for
-- ARGV[2] ms, so that a retry after a lost reply answers the same instead of
-- "not owner", and a late duplicate of an earlier release touches nothing.
-- One key per owner, overwritten, rather than one per release: no key is
-- created and later expired on each release. Which id is later is
-- hold_checks.lua's already_released(), put before this script.
--
-- Returns 1 released (now or by this request or a later one), 0 the owner
-- does not hold it (only the latch written: see below).
--
-- The latch also refuses an acquire of this owner older than the release
-- (acquire.lua): a withdrawal of an acquire that timed out is a release
-- that may find nothing, and must still outrank that acquire if it runs late.
-- It is written with pcall there: out of memory, a release that finds
-- nothing still answers.
--
-- KEYS[5] and KEYS[7] are the waiting owners (waiters.lua, put before this
-- script): the longest-waiting live one is named on the channel, and when a
-- subscriber heard it, it is KEYS[4], the owner whose turn it is, for ARGV[4]
-- ms: until it takes the lock, only single attempts get the free lock
-- (acquire.lua). 0 ms: no turn, and Redisson's message alone.
--
-- KEYS[6] is the owner's grant key (tokens.lua): it goes with the hold.
--
-- The PUBLISHes run first: an ACL without the channel (the default for new users
-- since Redis 7.0) refuses it, and the lock must not be gone without its
-- wake-up. DEL comes before the latch's and the turn's SET (the waiters' ZREMs
-- are no writes Redis refuses when out of memory): a script's first write is
-- refused when the server is out of memory, and a release must still work
-- then (DEL frees memory; once the script has written, SET is allowed).
local lock, channel, latch, turn, waiting, grant, deadlines = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local owner, latch_ms, request, yield_ms = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

if already_released(latch, request) then
  return 1
end
if redis.call('hexists', lock, owner) == 0 then
  redis.pcall('set', latch, request, 'px', latch_ms)
  return 0
end
-- The releasing owner waits no more, whatever a late heartbeat wrote.
leave_waiters(waiting, deadlines, owner)
local named = yield_ms ~= '0' and next_waiter(waiting, deadlines, server_now_ms())
local heard = named and redis.call('publish', channel, turn_message(named)) or 0
redis.call('publish', channel, 0)
redis.call('del', lock, grant)
redis.call('set', latch, request, 'px', latch_ms)
if heard > 0 then
  redis.call('set', turn, named, 'px', yield_ms)
end
return 1
