-- Checks every lock kind's scripts share (the lock's, the fair lock's, the
-- read-write lock's): this text is put before theirs when they are compiled
-- in (LockScripts::acquire_prelude() in lock_resource.cpp,
-- fair_lock_resource.cpp, rwlock_resource.cpp).

-- Whether the owner's release latch `latch` (release.lua) already holds the
-- release `request` or a later one. Request ids of one client are
-- '<client id>:<count>', and the latch is per owner field, which names the
-- client: a later id is longer or, as long, greater. A release finding it
-- answers as the earlier one did; an acquire finding it is older than the
-- owner's last release or withdrawal, and is refused.
local function already_released(latch, request)
  local last = redis.call('get', latch)
  return last and (#last > #request or (#last == #request and last >= request))
end

-- An error reply for a lease outside 1 to DLOCK_DURATION_MAX_MS (a year) ms,
-- nil for a good one.
local function bad_lease(lease)
  if not string.find(lease, '^[1-9]%d*$') or tonumber(lease) > 31536000000 then
    return redis.error_reply('ERR acquire: the lease must be a whole number of ms from 1 to 31536000000, got ' .. lease)
  end
end
