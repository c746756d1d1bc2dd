-- Fencing tokens, shared by the acquire scripts of the lock, the fair lock
-- and the read-write lock: this text is put before theirs when they are
-- compiled in (lock_resource.cpp, fair_lock_resource.cpp, rwlock_resource.cpp).
--
-- A fresh token is max(counter + 1, server time in microseconds), written
-- back to the counter: tokens keep rising when a restart without persistence
-- or a failover loses the counter. The counter only ever grows by Redis's own
-- INCRBY (of the gap to the clock, or of 1 when it is ahead), exact in 64
-- bits, as Redisson's RFencedLock grows it by INCR.
--
-- Every grant is recorded under its owner's grant key as 'request token' for
-- the grant's lease. An acquire that finds its owner's field already in the
-- lock is the retry of that grant (its first reply was lost) only when it
-- carries the recorded request id: then it gets the recorded token. Any other
-- is a fresh grant with a fresh token: the field may be a hold that a restart
-- from an older snapshot, or a failover to a replica that missed the owner's
-- release and the grants after it, brought back, and its token is below
-- theirs.

local function server_clock_us()
  local now = redis.call('time')
  return now[1] * 1000000 + now[2]
end

-- A fresh token from `counter`, recorded under `grant` for `request` and
-- `lease` ms. Returns the token, or nil and an error reply when the counter
-- is not a number (nothing written then).
local function fresh_grant(counter, grant, request, lease)
  local clock_us = server_clock_us()
  local stored = redis.call('get', counter)
  local last = tonumber(stored or 0)
  if not last then
    return nil, redis.error_reply('ERR acquire: the fencing counter ' .. counter .. ' holds ' .. stored .. ', not a number')
  end
  -- Up to the clock, or by 1 when the counter is ahead of it.
  local token = redis.call('incrby', counter, math.max(clock_us - last, 1))
  redis.call('set', grant, string.format('%s %d', request, token), 'px', lease)
  return token
end

-- The token recorded under `grant` when `request` is that grant's retry, else nil.
local function retried_token(grant, request)
  local recorded = redis.call('get', grant)
  if recorded then
    local id, token = string.match(recorded, '^(%S+) (%d+)$')
    if id == request then
      return tonumber(token)
    end
  end
  return nil
end

-- The token of a grant to an owner whose field is already in the lock: the
-- recorded one when `request` is the grant's retry, else a fresh grant's.
-- Returns the token, or nil and an error reply.
local function holders_token(counter, grant, request, lease)
  local token = retried_token(grant, request)
  if token then
    return token
  end
  return fresh_grant(counter, grant, request, lease)
end
