-- The owners waiting for a reentrant lock, shared by its acquire, release,
-- heartbeat and leave scripts: this text is put before theirs when they are
-- compiled in (lock_resource.cpp).
--
-- `waiting` (dlock_waiting:{name}) scores each waiting owner by when it
-- first found the lock taken (server time, ms): the order turns go in.
-- `deadlines` (dlock_waiting:{name}:until) scores it by when it counts as
-- gone: an entry lives wait_liveness_ms (put before this text, from
-- backends/redis/wait_heartbeat.hpp) past the owner's last attempt or its client's
-- heartbeat, so a waiter that crashed is dropped within a second; one that
-- gives up leaves at once (wait_leave.lua), and a grant takes its owner out.
--
-- A release names the turn of the longest-waiting live owner: it publishes
-- turn_message(owner) on the lock's channel just before Redisson's 0, and
-- keeps the owner under `turn` for release_yield_ms. Redisson's waiters
-- ignore a message other than 0 or 1; a dlock subscriber wakes the named
-- waiter alone and ignores the 0 that follows.

local function server_now_ms()
  local now = redis.call('time')
  return now[1] * 1000 + math.floor(now[2] / 1000)
end

-- The number that names `field`'s turn on the channel: 48 bits of its SHA1,
-- plus 2 to stay clear of Redisson's 0 and 1. The waiter learns it from its
-- refused attempt.
local function turn_number(field)
  return tonumber(string.sub(redis.sha1hex(field), 1, 12), 16) + 2
end

local function turn_message(field)
  return string.format('%d', turn_number(field))
end

local function leave_waiters(waiting, deadlines, field)
  redis.call('zrem', waiting, field)
  redis.call('zrem', deadlines, field)
end

-- Best effort (pcall): out of memory, the caller still learns the PTTL.
local function join_waiters(waiting, deadlines, field, now_ms)
  redis.pcall('zadd', waiting, 'nx', now_ms, field)
  redis.pcall('zadd', deadlines, now_ms + wait_liveness_ms, field)
  redis.pcall('pexpire', waiting, 2 * wait_liveness_ms)
  redis.pcall('pexpire', deadlines, 2 * wait_liveness_ms)
end

-- Drops the owners whose deadline has passed.
local function drop_dead_waiters(waiting, deadlines, now_ms)
  for _, dead in ipairs(redis.call('zrangebyscore', deadlines, '-inf', '(' .. now_ms)) do
    leave_waiters(waiting, deadlines, dead)
  end
end

-- The longest-waiting live owner, or nil; the dead ones are dropped.
local function next_waiter(waiting, deadlines, now_ms)
  drop_dead_waiters(waiting, deadlines, now_ms)
  return redis.call('zrange', waiting, 0, 0)[1]
end
