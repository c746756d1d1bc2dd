-- Requests applied exactly once, shared by the scripts that apply a caller's
-- request to a semaphore, a latch or a leased permit: this text is put before
-- theirs when they are compiled in (core/requests_lua.hpp).
--
-- A request that failed ambiguously on the client (a command timeout, a
-- broken connection) may still run when a stalled server resumes. The client
-- then settles it under its request id (core/pending_requests.hpp): it
-- finishes it (sends it again) or withdraws it. The caller's record key holds
-- '<request id> applied' or '<request id> withdrawn' of its latest request on
-- the primitive, for the retry window, so whichever of the request and its
-- withdrawal runs first wins: run first, the request is undone by the
-- withdrawal; run second, it finds itself withdrawn and does nothing.
--
-- Request ids are '<client id>:<count>', the count rising with each request
-- of the client, and a client settles a caller's pending request before it
-- sends that caller's next one: a request older than the recorded one was
-- settled already, and is a late copy ('settled').

local function request_count(request)
  return tonumber(string.match(request, ':(%d+)$'))
end

-- 'applied', 'withdrawn', 'settled' (older than the recorded request) or nil
-- (never seen) for `request` under `record`.
local function request_state(record, request)
  local recorded = redis.call('get', record)
  if not recorded then
    return nil
  end
  local id, state = string.match(recorded, '^(%S+) (%a+)$')
  if id == request then
    return state
  end
  local mine, latest = request_count(request), id and request_count(id)
  if mine and latest and mine < latest then
    return 'settled'
  end
  return nil
end

-- Records that `request` was applied or withdrawn ('applied', 'withdrawn'),
-- for `window` ms.
local function record_request(record, request, state, window)
  redis.call('set', record, request .. ' ' .. state, 'px', window)
end
