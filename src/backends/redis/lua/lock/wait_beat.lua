-- One client's heartbeat for its waiters on one reentrant lock (waiters.lua,
-- put before this script): KEYS[1] the lock, KEYS[2] and KEYS[3] the waiting
-- owners, KEYS[4] the owner whose turn it is; ARGV the waiting owner fields.
-- Each still waiting is marked alive for another window; dead ones leave.
--
-- Returns one integer per field: 1 when its waiter must try again now (it
-- is no longer among the waiting owners, e.g. it was paused past the window,
-- or the lock is free with no turn and it is the longest-waiting live owner:
-- a wake-up was lost, or a named owner's turn lapsed unused), 0 when it waits
-- on. One waiter is woken, not every waiter of the client: the others would
-- only be refused. An owner whose turn is open is not woken here: the turn's
-- message is on its way, and a wake-up from here would race it (and count as
-- no hand-off); if that message was lost the turn lapses within
-- release_yield_ms and the owner, still the longest-waiting, is woken then.
--
-- It runs every heartbeat period for as long as the client waits, so its
-- cost does not grow with the waiters: one ZADD XX marks them all, and only when it marked
-- fewer than were named (one was dropped, or marked twice in a millisecond)
-- are they looked up one by one. A held lock costs no more.
local lock, waiting, deadlines, turn = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now_ms = server_now_ms()

drop_dead_waiters(waiting, deadlines, now_ms)
-- In slices: unpack() is bounded by Lua's stack.
local slice, marked = 1000, 0
for first = 1, #ARGV, slice do
  local marks = {'zadd', deadlines, 'xx', 'ch'}
  for i = first, math.min(first + slice - 1, #ARGV) do
    marks[#marks + 1] = now_ms + wait_liveness_ms
    marks[#marks + 1] = ARGV[i]
  end
  marked = marked + redis.call(unpack(marks))
end
local free = redis.call('exists', lock) == 0
local turn_owner = free and redis.call('get', turn)
local head = free and not turn_owner and redis.call('zrange', waiting, 0, 0)[1]
local answers = {}
for i = 1, #ARGV do
  local field = ARGV[i]
  local still_waiting = marked == #ARGV or redis.call('zscore', waiting, field)
  local its_chance = head == field
  answers[i] = (not still_waiting or its_chance) and 1 or 0
end
if redis.call('pexpire', waiting, 2 * wait_liveness_ms) == 1 then
  redis.call('pexpire', deadlines, 2 * wait_liveness_ms)
end
return answers
