-- Counts one more attempt at the job of the current period in KEYS[1], which
-- expires at the period's end (ARGV[2], Unix ms), unless ARGV[1] attempts have
-- already been made. Returns the attempt's number, or 0 when over the limit.
local attempts = tonumber(redis.call('get', KEYS[1]) or '0')
if attempts >= tonumber(ARGV[1]) then
  return 0
end
attempts = redis.call('incr', KEYS[1])
redis.call('pexpireat', KEYS[1], ARGV[2])
return attempts
