-- Records the note ARGV[2] of the hold ARGV[1] (its field in the lock hash
-- KEYS[1]) in the string KEYS[2] as "<field>\n<note>", only while that hold
-- exists: 1 recorded, 0 not the holder (nothing written). The lock's hash is
-- only read, so Redisson's layout is untouched.
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('set', KEYS[2], ARGV[1] .. '\n' .. ARGV[2])
return 1
