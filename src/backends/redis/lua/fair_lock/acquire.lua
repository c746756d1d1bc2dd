-- One acquire attempt of the fair lock by the owner field ARGV[2] with a lease
-- of ARGV[1] ms; ARGV[3] is the prefix of the waiters' wake-up channels;
-- ARGV[5] is the attempt's request id and KEYS[5] the owner's grant key
-- (tokens.lua). KEYS[6] is the owner's release latch (release.lua): an attempt
-- older than the owner's last release or withdrawal is refused, as the
-- reentrant lock's is. A failed attempt may reach a stalled server later; the
-- client withdraws it, and the withdrawal outranks it whichever runs first,
-- so it never queues a waiter that is gone.
--
-- Returns the fencing token (an integer) when the caller holds the lock: a
-- grant the release made to it as the head of the queue (confirmed here: the
-- short grant lease becomes the caller's lease, and the grant gets its
-- token), its own grant retried under the same request id (the recorded
-- token), or a free lock with nobody ahead of it. Otherwise the caller is
-- queued (once: its arrival stays its place) and {-1} is returned: it waits
-- for its wake-up message, not for the holder's lease. ARGV[4] is '1' when
-- the caller waits; with '0' (one attempt) it is granted only a free lock
-- nobody waits for, and never queued.
local grant, latch = KEYS[5], KEYS[6]
local lease, field, wake_prefix, will_wait, request = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1', ARGV[5]

local refused = bad_lease(lease)
if refused then
  return refused
end

-- Older than the owner's last release or withdrawal (hold_checks.lua).
if already_released(latch, request) then
  return {-1}
end

local clock_us = server_clock_us()
drop_dead(clock_us)

if redis.call('hexists', lock, field) == 1 then
  local token, bad_counter = holders_token(counter, grant, request, lease)
  if not token then
    return bad_counter
  end
  redis.call('pexpire', lock, lease)
  leave_queue(field)
  return token
end

if redis.call('exists', lock) == 0 then
  local head = redis.call('zrange', queue, 0, 0)[1]
  if not head or head == field then
    local token, bad_counter = fresh_grant(counter, grant, request, lease)
    if not token then
      return bad_counter
    end
    redis.call('hset', lock, field, 1)
    local expiring = redis.pcall('pexpire', lock, lease)
    if type(expiring) == 'table' and expiring.err then
      redis.call('del', lock)
      return expiring
    end
    leave_queue(field)
    return token
  end
  -- Free, but others came first (a Redisson holder released it, or a head
  -- never took its grant): the lock is the head's.
  grant_head(wake_prefix)
end

if not will_wait then
  return {-1}
end
if not redis.call('zscore', queue, field) then
  -- Arrival order, on the server's clock; ties (same µs) go after the tail.
  local arrival = clock_us
  local tail = redis.call('zrange', queue, -1, -1, 'WITHSCORES')
  if tail[2] and tonumber(tail[2]) >= arrival then
    arrival = tonumber(tail[2]) + 1
  end
  redis.call('zadd', queue, arrival, field)
end
redis.call('zadd', seen, math.floor(clock_us / 1000), field)
redis.call('pexpire', queue, queue_keys_ms)
redis.call('pexpire', seen, queue_keys_ms)
return {-1}
