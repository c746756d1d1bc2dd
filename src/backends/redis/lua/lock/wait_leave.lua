-- The owner field ARGV[1] stops waiting for the reentrant lock KEYS[1] (its
-- wait ran out, it was cancelled, or its acquire failed): it leaves the
-- waiting owners KEYS[2] and KEYS[3] (waiters.lua, put before this script).
-- A turn a release had named for it, KEYS[4], passes to the next live
-- waiting owner, named on the channel KEYS[5] as release.lua names it, for
-- ARGV[2] ms. Returns 1.
local lock, waiting, deadlines, turn, channel = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local field, yield_ms = ARGV[1], ARGV[2]

leave_waiters(waiting, deadlines, field)
if redis.call('get', turn) ~= field then
  return 1
end
redis.call('del', turn)
if redis.call('exists', lock) == 1 then
  return 1
end
local named = next_waiter(waiting, deadlines, server_now_ms())
if named and redis.call('publish', channel, turn_message(named)) > 0 then
  redis.call('publish', channel, 0)
  redis.call('set', turn, named, 'px', yield_ms)
end
return 1
