-- Takes ARGV[1] permits of the semaphore KEYS[1] (Redisson's RSemaphore: a
-- string holding the available count) when that many are available.
--
-- KEYS[2] is the caller's request record (requests.lua) and ARGV[2] the
-- request's id, recorded for ARGV[3] ms: a retry after a lost reply answers 1
-- again instead of taking the permits twice, and a withdrawn request
-- (withdraw.lua) takes nothing.
--
-- Returns 1 taken, 0 not enough permits or withdrawn (nothing touched).
local count, record = KEYS[1], KEYS[2]
local permits, request, window = ARGV[1], ARGV[2], ARGV[3]

local state = request_state(record, request)
if state == 'applied' then
  return 1
end
if state then
  return 0
end
local value = redis.call('get', count)
if value ~= false and tonumber(value) >= tonumber(permits) then
  redis.call('decrby', count, permits)
  record_request(record, request, 'applied', window)
  return 1
end
return 0
