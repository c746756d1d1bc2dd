-- Whether the read-write lock KEYS[1] is held on the side ARGV[1], as
-- Redisson's isLocked answers: the write side when the mode is 'write'; the
-- read side when the mode is 'read', or 'write' with a read hold beside the
-- writer's (a downgrade). Returns 1 or 0.
local mode = redis.call('hget', KEYS[1], 'mode')
if ARGV[1] == 'write' then
  return mode == 'write' and 1 or 0
end
if mode == 'read' or (mode == 'write' and redis.call('hlen', KEYS[1]) > 2) then
  return 1
end
return 0
