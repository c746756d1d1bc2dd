-- Turns the hold of the owner whose field in lock KEYS[1] ends with ARGV[1]
-- (":<owner-id>") into a fixed lease of ARGV[2] ms that no client renews: the
-- field is renamed to "<client-uuid>:held-after-success", so the holder's
-- watchdog finds its own field gone and stops, while other clients still see
-- the lock held until the lease ends. Returns 1, or 0 when the hold is gone.
local lock, suffix = KEYS[1], ARGV[1]
for _, field in ipairs(redis.call('hkeys', lock)) do
  if #field > #suffix and string.sub(field, -#suffix) == suffix then
    local client = string.sub(field, 1, #field - #suffix)
    redis.call('hdel', lock, field)
    redis.call('hset', lock, client .. ':held-after-success', 1)
    redis.call('pexpire', lock, ARGV[2])
    return 1
  end
end
return 0
