-- Ends the write hold of the owner field ARGV[1] on the read-write lock
-- KEYS[1], as Redisson's write unlock does: when no other field is left the
-- lock is deleted; when the owner also took the read side (downgrade) the
-- lock turns to 'read' and its read hold stays. Either way 1 (Redisson's
-- "read unlock" message, which wakes every waiter) is published on KEYS[2]:
-- after a downgrade, readers may enter.
--
-- KEYS[3] is the owner's latch: the id ARGV[3] of its last release, kept
-- ARGV[2] ms, so a retry after a lost reply answers the same. KEYS[4] is the
-- owner's grant key (tokens.lua): it goes with the hold.
--
-- Returns 1 released, 0 the owner holds no write hold (nothing touched).
local lock, channel, latch, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, latch_ms, request = ARGV[1], ARGV[2], ARGV[3]

if already_released(latch, request) then
  return 1
end
if redis.call('hget', lock, 'mode') ~= 'write' or redis.call('hexists', lock, owner) == 0 then
  return 0
end
redis.call('publish', channel, 1)
if redis.call('hlen', lock) <= 2 then
  redis.call('del', lock)
else
  redis.call('hdel', lock, owner)
  redis.call('hset', lock, 'mode', 'read')
end
redis.call('del', grant)
redis.call('set', latch, request, 'px', latch_ms)
return 1
