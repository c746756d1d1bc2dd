-- Functions the read-write lock's acquire and release scripts share: this
-- text is put before theirs when they are compiled in (rwlock_resource.cpp).

-- A fresh fencing token from the counter `counter`: max(counter + 1, server
-- time in microseconds), written back by INCRBY, so tokens keep rising when a
-- restart or a failover lost the counter. Returns the token, or nil and an
-- error reply when the counter is not a number.
local function next_token(counter)
  local now = redis.call('time')
  local clock_us = now[1] * 1000000 + now[2]
  local stored = redis.call('get', counter)
  local last = tonumber(stored or 0)
  if not last then
    return nil, redis.error_reply('ERR acquire: the fencing counter ' .. counter .. ' holds ' .. stored .. ', not a number')
  end
  return redis.call('incrby', counter, math.max(clock_us - last, 1))
end

-- Whether the owner's latch `latch` already holds the release `request` or a
-- later one: request ids are '<client id>:<count>', so a later one is longer
-- or, as long, greater.
local function already_released(latch, request)
  local last = redis.call('get', latch)
  return last and (#last > #request or (#last == #request and last >= request))
end

-- A lease of 1 to DLOCK_DURATION_MAX_MS (a year) ms, else an error reply.
local function bad_lease(lease)
  if not string.find(lease, '^[1-9]%d*$') or tonumber(lease) > 31536000000 then
    return redis.error_reply('ERR acquire: the lease must be a whole number of ms from 1 to 31536000000, got ' .. lease)
  end
end

