-- Releases the lock KEYS[1] held by the owner field ARGV[1]: deletes it and
-- publishes 0 on the wake-up channel KEYS[2], as Redisson's unlock does.
--
-- KEYS[3] is the owner's latch: the id ARGV[3] of its last release, kept for
-- ARGV[2] ms, so that a retry after a lost reply answers the same instead of
-- "not owner", and a late duplicate of an earlier release touches nothing.
-- One key per owner, overwritten, rather than one per release: no key is
-- created and later expired on each release. A client's request ids are
-- "<client id>:<count>", and the field names the client, so a later id is
-- longer or, as long, greater.
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
-- When the wake-up reached a subscriber and dlock waiters found the lock
-- held (the set KEYS[5], see acquire.lua), the set becomes their turn, KEYS[4],
-- for ARGV[4] ms: until one of them takes the lock, a newcomer or this owner
-- asking again at once, which need no wake-up, waits. 0 ms: no turn.
--
-- KEYS[6] is the owner's grant key (tokens.lua): it goes with the hold.
--
-- PUBLISH runs first: an ACL without the channel (the default for new users
-- since Redis 7.0) refuses it, and the lock must not be gone without its
-- wake-up. DEL comes before the latch's SET: a script's first write is
-- refused when the server is out of memory, and a release must still work
-- then (DEL frees memory; once the script has written, SET is allowed).
local lock, channel, latch, turn, waiting, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, latch_ms, request, yield_ms = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local last = redis.call('get', latch)
if last and (#last > #request or (#last == #request and last >= request)) then
  return 1
end
if redis.call('hexists', lock, owner) == 0 then
  redis.pcall('set', latch, request, 'px', latch_ms)
  return 0
end
local woken = redis.call('publish', channel, 0)
redis.call('del', lock, grant)
redis.call('set', latch, request, 'px', latch_ms)
if woken > 0 and yield_ms ~= '0' and redis.call('exists', waiting) == 1 then
  redis.call('rename', waiting, turn)
  redis.call('pexpire', turn, yield_ms)
end
return 1
