-- Deletes the lock KEYS[1] whoever holds it and publishes 0 on KEYS[2].
-- A key of another type is not a lock: it is left untouched.
-- Returns 1 deleted, 0 it was not locked.
local kind = redis.call('type', KEYS[1]).ok
if kind == 'none' then
  return 0
end
if kind ~= 'hash' then
  return redis.error_reply('WRONGTYPE ' .. KEYS[1] .. ' is a ' .. kind .. ', not a lock')
end
redis.call('del', KEYS[1])
redis.call('publish', KEYS[2], 0)
return 1
