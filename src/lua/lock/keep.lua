-- Turns the hold of the owner field ARGV[1] on the lock KEYS[1] into a kept
-- hold that lapses in ARGV[2] ms: the field is renamed to ARGV[1] .. ':kept',
-- so the holder's renewals and re-acquires (which look for ARGV[1]) find it
-- gone, while everyone, that owner included, still finds the lock taken.
--
-- Returns 1 kept, or when a retry whose reply was lost finds its own kept
-- field (left as it is); 0 the owner does not hold it (nothing touched).
local lock, owner, keep_ms = KEYS[1], ARGV[1], ARGV[2]
local kept = owner .. ':kept'

if redis.call('hexists', lock, owner) == 1 then
  redis.call('hdel', lock, owner)
  redis.call('hset', lock, kept, 1)
  redis.call('pexpire', lock, keep_ms)
  return 1
end
if redis.call('hexists', lock, kept) == 1 then
  return 1
end
return 0
