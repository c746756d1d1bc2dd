-- A dlock writer stopped waiting without the lock (its wait ran out, or it
-- was cancelled or interrupted): its write intent KEYS[1], if still its own
-- (ARGV[1]), goes, and the readers it held back are woken on KEYS[2] with 1
-- (every waiter). Returns 1 withdrawn, 0 another writer's intent or none.
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('publish', KEYS[2], 1)
  return 1
end
return 0
