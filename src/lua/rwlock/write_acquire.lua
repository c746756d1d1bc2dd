-- Takes the write side of the read-write lock KEYS[1] for the owner field
-- ARGV[2] (Redisson's '<client-uuid>:<owner>:write') with a lease of ARGV[1]
-- ms, in Redisson's RReadWriteLock layout: granted only when the lock is
-- free (no 'mode'); a field already there is a retried grant.
--
-- KEYS[2] is dlock's read-write fencing counter. KEYS[3] is the write intent:
-- a writer refused here and still willing to wait ARGV[3] ms (-1 forever, 0
-- not at all) marks it, so that new dlock readers wait behind it instead of
-- starving it. It lives until this writer is due to try again (the lock's
-- PTTL, when it wakes at the latest) plus a second, at most as long as the
-- writer waits; each refused attempt renews it and the grant removes it.
--
-- Returns the fencing token, an integer, when granted, else {the PTTL}.
local lock, counter, intent = KEYS[1], KEYS[2], KEYS[3]
local lease, owner, wait_left = ARGV[1], ARGV[2], tonumber(ARGV[3])

local refused = bad_lease(lease)
if refused then
  return refused
end

local mode = redis.call('hget', lock, 'mode')
if mode == false then
  local token, bad_counter = next_token(counter)
  if not token then
    return bad_counter
  end
  redis.call('hset', lock, 'mode', 'write', owner, 1)
  redis.call('pexpire', lock, lease)
  if redis.call('get', intent) == owner then
    redis.call('del', intent)
  end
  return token
end

if mode == 'write' and redis.call('hexists', lock, owner) == 1 then
  redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
  return tonumber(redis.call('get', counter) or 0)
end

local holder_pttl = redis.call('pttl', lock)
if wait_left ~= 0 then
  local intent_ms = math.max(holder_pttl, 0) + 1000
  if wait_left > 0 then
    intent_ms = math.min(intent_ms, wait_left)
  end
  redis.call('set', intent, owner, 'px', intent_ms)
end
return {holder_pttl}
