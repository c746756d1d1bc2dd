-- Turns the hold of the owner field ARGV[1] on the lock KEYS[1] into a kept
-- hold that lapses in ARGV[2] ms: the field is renamed to ARGV[1] .. ':kept',
-- so the holder's renewals and re-acquires (which look for ARGV[1]) find it
-- gone, while everyone, that owner included, still finds the lock taken.
-- It publishes 0 on the wake-up channel KEYS[2], as a release does: waiters
-- sleep until the lease they last saw, which the kept time may shorten, so
-- they try again now and learn the new one. PUBLISH runs first, so an ACL
-- without the channel refuses the keep before anything is written.
--
-- Returns 1 kept, or when a retry whose reply was lost finds its own kept
-- field (left as it is); 0 the owner does not hold it (nothing touched).
local lock, channel, owner, keep_ms = KEYS[1], KEYS[2], ARGV[1], ARGV[2]
local kept = owner .. ':kept'

if redis.call('hexists', lock, owner) == 1 then
  redis.call('publish', channel, 0)
  redis.call('hdel', lock, owner)
  redis.call('hset', lock, kept, 1)
  redis.call('pexpire', lock, keep_ms)
  return 1
end
if redis.call('hexists', lock, kept) == 1 then
  return 1
end
return 0
