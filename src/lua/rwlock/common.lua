-- Functions the read-write lock's acquire and release scripts share: this
-- text is put before theirs when they are compiled in (rwlock_resource.cpp).
-- The acquire scripts' tokens come from tokens.lua, put before this text.

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

