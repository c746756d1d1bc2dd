-- The fair lock's queue, shared by its scripts (prepended to each, so every
-- script reads the same definitions). The lock itself is Redisson's RLock
-- hash, so RLock and RFairLock clients on the same name stay mutually
-- exclusive; the queue is dlock's own:
--   KEYS[1] the lock hash           KEYS[2] the fencing counter
--   KEYS[3] the queue: a ZSET of waiting owner fields scored by arrival (server µs)
--   KEYS[4] last seen: a ZSET of the same fields scored by their last heartbeat (server ms)
-- Every time comes from the server's clock (TIME), never a client's; the
-- fencing tokens come from tokens.lua, put before this text, as the reentrant
-- lock's do: one sequence for both.
local lock, counter, queue, seen = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

-- A waiter not seen for wait_liveness_ms (put before this text, from
-- backends/redis/wait_heartbeat.hpp: three of its client's heartbeats) is dead, so one
-- that died leaves within a second (its last heartbeat, a period before at
-- most, plus this window, and the next script to run).
-- A grant's lease until its owner confirms it: a head that died between
-- the grant and its confirmation holds the lock no longer than this.
local grant_ms = 2000
-- The queue's keys outlive their last heartbeat by this much, so a queue
-- whose waiters all died leaves nothing behind.
local queue_keys_ms = 2 * wait_liveness_ms

local function leave_queue(field)
  redis.call('zrem', queue, field)
  redis.call('zrem', seen, field)
end

-- Drops waiters not seen within the liveness window (a bounded number per
-- call, so no script's cost grows with the queue).
local function drop_dead(clock_us)
  local cutoff = math.floor(clock_us / 1000) - wait_liveness_ms
  local dead = redis.call('zrangebyscore', seen, '-inf', cutoff, 'LIMIT', 0, 16)
  if #dead > 0 then
    redis.call('zrem', queue, unpack(dead))
    redis.call('zrem', seen, unpack(dead))
  end
end

-- Grants the free lock to the head of the queue, with the short grant lease,
-- and wakes that waiter alone on its own channel (the message is 1). The
-- head's token comes with its confirmation (acquire.lua): a grant the head
-- never heard of, brought back by a restart, must not hand out a token.
-- Returns the head's field, or nil when nobody waits.
local function grant_head(wake_prefix)
  local head = redis.call('zrange', queue, 0, 0)[1]
  if not head then
    return nil
  end
  redis.call('hset', lock, head, 1)
  redis.call('pexpire', lock, grant_ms)
  leave_queue(head)
  redis.call('publish', wake_prefix .. head, 1)
  return head
end

-- Lets the lock go (its holder released it or never took its grant): to the
-- next live waiter, or, with none, free, with Redisson's release message on
-- the lock's channel so RLock waiters wake.
local function pass_on(clock_us, wake_prefix, channel)
  redis.call('del', lock)
  drop_dead(clock_us)
  if not grant_head(wake_prefix) then
    redis.call('publish', channel, 0)
  end
end
