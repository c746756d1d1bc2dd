-- Counts one more attempt in the counter KEYS[1] unless ARGV[1] attempts have
-- been counted already. A new counter lapses ARGV[2] ms after its first
-- attempt. KEYS[2] is this request's latch: it keeps the answer for ARGV[3] ms
-- so a retry after a lost reply is not counted twice.
--
-- Returns {1, the attempt's number} when counted, {0, attempts so far} when
-- the limit was reached (nothing counted).
local counter, latch = KEYS[1], KEYS[2]
local max_attempts, expire_ms, latch_ms = tonumber(ARGV[1]), ARGV[2], ARGV[3]

local done = redis.call('get', latch)
if done then
  return cjson.decode(done)
end
local attempts = tonumber(redis.call('get', counter) or '0')
local answer
if attempts >= max_attempts then
  answer = {0, attempts}
else
  attempts = redis.call('incr', counter)
  if attempts == 1 then
    redis.call('pexpire', counter, expire_ms)
  end
  answer = {1, attempts}
end
redis.call('set', latch, cjson.encode(answer), 'px', latch_ms)
return answer
