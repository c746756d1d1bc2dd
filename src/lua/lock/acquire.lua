-- Acquires the reentrant lock KEYS[1] for the owner field ARGV[2] with a lease
-- of ARGV[1] ms (Redisson's RLock layout: a hash whose one field is the
-- owner, with a hold count of 1 since re-entries are counted by the client).
-- KEYS[2] is the fencing counter (Redisson's RFencedLock key).
--
-- Returns {1, token} when the caller holds the lock: a fresh grant, or a grant
-- already the caller's (a retry whose first reply was lost), which keeps its
-- token. Otherwise returns {0, the holder's PTTL}.
--
-- A fresh token is max(counter + 1, server time in microseconds), written back
-- to the counter: tokens keep increasing even when a restart without
-- persistence or a failover loses the counter.
local lock, counter = KEYS[1], KEYS[2]
local lease, owner = ARGV[1], ARGV[2]

if redis.call('exists', lock) == 0 then
  redis.call('hset', lock, owner, 1)
  redis.call('pexpire', lock, lease)
  local token = redis.call('incr', counter)
  local now = redis.call('time')
  local floor = now[1] * 1000000 + now[2]
  if token < floor then
    token = redis.call('incrby', counter, string.format('%d', floor - token))
  end
  return {1, token}
end

if redis.call('hexists', lock, owner) == 1 then
  redis.call('pexpire', lock, lease)
  return {1, tonumber(redis.call('get', counter) or 0)}
end

return {0, redis.call('pttl', lock)}
