-- Deletes the read-write lock KEYS[1] when its mode is ARGV[1] ('read' or
-- 'write'), whoever holds it, and announces it on KEYS[2] with 1 (every
-- waiter wakes), as Redisson's forceUnlock of that side does.
-- Returns 1 deleted, 0 not held in that mode.
if redis.call('hget', KEYS[1], 'mode') == ARGV[1] then
  redis.call('publish', KEYS[2], 1)
  redis.call('del', KEYS[1])
  return 1
end
return 0
