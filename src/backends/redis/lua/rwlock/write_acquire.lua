-- Takes the write side of the read-write lock KEYS[1] for the owner field
-- ARGV[2] (Redisson's '<client-uuid>:<owner>:write') with a lease of ARGV[1]
-- ms, in Redisson's RReadWriteLock layout: granted only when the lock is
-- free (no 'mode'); the owner's field already there under the grant's request
-- id ARGV[4] is a retried grant, which keeps its token, and under another a
-- fresh grant (KEYS[4] is the owner's grant key, see tokens.lua).
--
-- KEYS[2] is dlock's read-write fencing counter. KEYS[3] is the write intent:
-- a writer refused here that will wait marks it for ARGV[3] ms (0: it will
-- not wait, no mark), so that new dlock readers wait behind it instead of
-- starving it. The expiry is short (the client's wait heartbeat keeps the
-- intent of a writer still waiting, intent_heartbeat.lua), so a writer that
-- died or stopped while waiting holds readers back no longer than that; each
-- refused attempt renews it and the grant removes it.
--
-- Returns the fencing token, an integer, when granted, else {the PTTL}.
local lock, counter, intent, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local lease, owner, intent_ms, request = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]

local refused = bad_lease(lease)
if refused then
  return refused
end

local mode = redis.call('hget', lock, 'mode')
if mode == false then
  local token, bad_counter = fresh_grant(counter, grant, request, lease)
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
  local token, bad_counter = holders_token(counter, grant, request, lease)
  if not token then
    return bad_counter
  end
  redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
  return token
end

if intent_ms > 0 then
  redis.call('set', intent, owner, 'px', intent_ms)
end
return {redis.call('pttl', lock)}
