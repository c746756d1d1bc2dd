-- Ends the read hold of the owner field ARGV[1] on the read-write lock
-- KEYS[1], as Redisson's read unlock does: the field and its timeout key
-- (KEYS[4]..':1') go; while other holds remain, the hash lives as long as the
-- longest of their timeout keys (KEYS[5] is the prefix they share, Redisson's
-- '{<name>}'), or as it is while a writer who downgraded still holds it;
-- otherwise the lock is deleted and a release is announced on KEYS[2].
--
-- KEYS[3] is the owner's latch: the id ARGV[3] of its last release, kept
-- ARGV[2] ms, so a retry after a lost reply answers the same. KEYS[6] is the
-- owner's grant key (tokens.lua): it goes with the hold.
--
-- Publishes 1, Redisson's "read unlock" message, which wakes every waiter:
-- several readers may enter at once.
--
-- Returns 1 released, 0 the owner holds no read hold (nothing touched).
local lock, channel, latch, timeout_prefix, key_prefix, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, latch_ms, request = ARGV[1], ARGV[2], ARGV[3]

if already_released(latch, request) then
  return 1
end
local count = tonumber(redis.call('hget', lock, owner))
if not count then
  return 0
end
local mode = redis.call('hget', lock, 'mode')

local function ends_lock()
  if redis.call('hlen', lock) <= 2 then
    return true
  end
  local longest = -3
  local fields = redis.call('hgetall', lock)
  for i = 1, #fields, 2 do
    local holds = tonumber(fields[i + 1])
    if fields[i] ~= owner and holds then
      for k = holds, 1, -1 do
        longest = math.max(longest, redis.call('pttl', key_prefix .. ':' .. fields[i] .. ':rwlock_timeout:' .. k))
      end
    end
  end
  if longest > 0 then
    redis.call('pexpire', lock, longest)
    return false
  end
  return mode ~= 'write'
end

if ends_lock() then
  redis.call('publish', channel, 1)
  redis.call('del', lock)
else
  redis.call('hdel', lock, owner)
end
for k = count, 1, -1 do
  redis.call('del', timeout_prefix .. ':' .. k)
end
redis.call('del', grant)
redis.call('set', latch, request, 'px', latch_ms)
return 1
