-- One client's heartbeat for its waiters on one reentrant lock (waiters.lua,
-- put before this script): KEYS[1] the lock, KEYS[2] and KEYS[3] the waiting
-- owners, KEYS[4] the owner whose turn it is; ARGV the waiting owner fields.
-- Each still waiting is marked alive for another window; dead ones leave.
--
-- Returns one integer per field: 1 when its waiter must try again now (it
-- is no longer among the waiting owners, e.g. it was paused past the window,
-- or the lock is free and the turn, if any, is its: a wake-up was lost or a
-- turn lapsed unused), 0 when it waits on.
local lock, waiting, deadlines, turn = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now_ms = server_now_ms()

next_waiter(waiting, deadlines, now_ms)
local free = redis.call('exists', lock) == 0
local turn_owner = redis.call('get', turn)
local answers = {}
for i = 1, #ARGV do
  local field = ARGV[i]
  local still_waiting = redis.call('zscore', waiting, field)
  if still_waiting then
    redis.call('zadd', deadlines, now_ms + alive_window_ms, field)
  end
  local its_chance = free and (not turn_owner or turn_owner == field)
  answers[i] = (not still_waiting or its_chance) and 1 or 0
end
if redis.call('exists', waiting) == 1 then
  redis.call('pexpire', waiting, 2 * alive_window_ms)
  redis.call('pexpire', deadlines, 2 * alive_window_ms)
end
return answers
