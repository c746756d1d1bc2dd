-- Extends the read hold of the owner field ARGV[2] on the read-write lock
-- KEYS[1] to ARGV[1] ms, as Redisson's read renewal does: its timeout key
-- (KEYS[2] is Redisson's '{<name>}' prefix of the timeout keys) and the hash,
-- whose expiry is never shortened (another hold may have a longer lease).
-- A hold whose field or timeout key is gone is not brought back: a Redisson
-- read unlock treats a read hold without its timeout key as ended.
-- Returns 1 renewed, 0 no longer held.
local lock, key_prefix = KEYS[1], KEYS[2]
local lease, owner = ARGV[1], ARGV[2]
if redis.call('hexists', lock, owner) == 0 then
  return 0
end
if redis.call('pexpire', key_prefix .. ':' .. owner .. ':rwlock_timeout:1', lease) == 0 then
  return 0
end
redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
return 1
