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
-- does not hold it (nothing touched).
--
-- PUBLISH runs first: an ACL without the channel (the default for new users
-- since Redis 7.0) refuses it, and the lock must not be gone without its
-- wake-up. DEL comes before the latch's SET: a script's first write is
-- refused when the server is out of memory, and a release must still work
-- then (DEL frees memory; once the script has written, SET is allowed).
local lock, channel, latch = KEYS[1], KEYS[2], KEYS[3]
local owner, latch_ms, request = ARGV[1], ARGV[2], ARGV[3]

local last = redis.call('get', latch)
if last and (#last > #request or (#last == #request and last >= request)) then
  return 1
end
if redis.call('hexists', lock, owner) == 0 then
  return 0
end
redis.call('publish', channel, 0)
redis.call('del', lock)
redis.call('set', latch, request, 'px', latch_ms)
return 1
