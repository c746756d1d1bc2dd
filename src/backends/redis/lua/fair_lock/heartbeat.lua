-- One client's heartbeat for its waiters on one fair lock: ARGV[1] is the
-- wake-up channels' prefix, ARGV[2..] the waiting owner fields. Each still
-- queued is marked seen now; dead waiters leave; a lock found free with
-- waiters queued (its holder crashed, or a head never took its grant) goes to
-- the head.
--
-- Returns one integer per field: 1 when its waiter must try again now (the
-- lock is its, or it is no longer queued, e.g. it was paused past the
-- liveness window), 0 when it waits on.
local wake_prefix = ARGV[1]
local clock_us = server_clock_us()
local now_ms = math.floor(clock_us / 1000)

local answers = {}
for i = 2, #ARGV do
  if redis.call('zscore', queue, ARGV[i]) then
    redis.call('zadd', seen, now_ms, ARGV[i])
    answers[i - 1] = 0
  else
    answers[i - 1] = 1
  end
end
drop_dead(clock_us)
if redis.call('exists', lock) == 0 then
  local granted = grant_head(wake_prefix)
  for i = 2, #ARGV do
    if ARGV[i] == granted then
      answers[i - 1] = 1
    end
  end
end
if redis.call('exists', queue) == 1 then
  redis.call('pexpire', queue, queue_keys_ms)
  redis.call('pexpire', seen, queue_keys_ms)
end
return answers
