-- Extends the write hold of the owner field ARGV[2] on the read-write lock
-- KEYS[1] to ARGV[1] ms while that field still holds it, never shortening
-- the hash's expiry (a read hold taken by the same owner may have a longer
-- lease). Returns 1 renewed, 0 no longer held.
local lock = KEYS[1]
local lease, owner = ARGV[1], ARGV[2]
if redis.call('hget', lock, 'mode') ~= 'write' or redis.call('hexists', lock, owner) == 0 then
  return 0
end
redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
return 1
