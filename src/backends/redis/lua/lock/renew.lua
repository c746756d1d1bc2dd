-- Extends the lease of the lock KEYS[1] to ARGV[1] ms, only while the owner
-- field ARGV[2] still holds it: a renewal never resurrects a released lock.
-- Returns 1 renewed, 0 the owner no longer holds it.
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('pexpire', KEYS[1], ARGV[1])
  return 1
end
return 0
