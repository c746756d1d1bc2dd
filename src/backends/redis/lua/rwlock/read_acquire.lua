-- Takes the read side of the read-write lock KEYS[1] for the owner field
-- ARGV[2] with a lease of ARGV[1] ms, in Redisson's RReadWriteLock layout:
-- the hash holds 'mode' ('read' or 'write') and one field per owner; every
-- read hold also has its timeout key KEYS[2]..':1' with the hold's lease.
-- Redisson's read unlock sets the hash's expiry from those timeout keys and
-- deletes the whole lock when none is left alive, so a read hold without one
-- would be thrown away by any Redisson reader's unlock.
--
-- The owner's write field is ARGV[3]: a writer may take the read side too
-- (downgrade), as in Redisson. KEYS[3] is dlock's read-write fencing counter;
-- KEYS[4] is a waiting dlock writer's intent: a new reader waits while it
-- lives, unless it already holds the write side (re-entry must not
-- deadlock). Redisson's readers ignore it.
--
-- Re-entries are counted by the client, so the field stays 1 and the one
-- timeout key is ':1'. Returns the fencing token, an integer, when granted
-- (the owner's field already there under the grant's request id ARGV[4] is a
-- retried grant: it keeps its token; under another, a fresh grant, with the
-- owner's grant key KEYS[5], see tokens.lua), else {how long to wait in ms}.
local lock, timeout_prefix, counter, intent, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local lease, owner, write_owner, request = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local refused = bad_lease(lease)
if refused then
  return refused
end

local mode = redis.call('hget', lock, 'mode')
local writing_self = mode == 'write' and redis.call('hexists', lock, write_owner) == 1
if mode == 'write' and not writing_self then
  return {redis.call('pttl', lock)}
end

local timeout = timeout_prefix .. ':1'
if mode ~= false and redis.call('hexists', lock, owner) == 1 then
  local token, bad_counter = holders_token(counter, grant, request, lease)
  if not token then
    return bad_counter
  end
  redis.call('set', timeout, 1, 'px', lease)
  redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
  return token
end

if not writing_self then
  local intent_ttl = redis.call('pttl', intent)
  if intent_ttl > 0 then
    return {intent_ttl}
  end
end

local token, bad_counter = fresh_grant(counter, grant, request, lease)
if not token then
  return bad_counter
end
if mode == false then
  redis.call('hset', lock, 'mode', 'read')
end
redis.call('hset', lock, owner, 1)
redis.call('set', timeout, 1, 'px', lease)
redis.call('pexpire', lock, math.max(redis.call('pttl', lock), tonumber(lease)))
return token
