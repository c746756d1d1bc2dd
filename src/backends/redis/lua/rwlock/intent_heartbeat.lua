-- One client's heartbeat for its writers waiting on the read-write lock
-- KEYS[2]: ARGV[1] is the write intent's expiry in ms, ARGV[2..] the waiting
-- writers' owner fields. The intent KEYS[1] of one of them gets its expiry
-- again, so it lives while its writer waits and lapses within that expiry of
-- the writer's death or pause (its heartbeat stops). A writer whose intent
-- another writer took over leaves it be: its next refused attempt marks it.
--
-- Returns one integer per field: 1 when its writer must try again now (the
-- lock is free: a release message it missed, or a holder that died), 0 when
-- it waits on.
local intent, lock = KEYS[1], KEYS[2]
local intent_ms = ARGV[1]

local holder = redis.call('get', intent)
local free = redis.call('exists', lock) == 0
local answers = {}
for i = 2, #ARGV do
  if ARGV[i] == holder then
    redis.call('pexpire', intent, intent_ms)
  end
  answers[i - 1] = free and 1 or 0
end
return answers
