-- A snapshot of the lock KEYS[1] and its fencing counter KEYS[2] in one round
-- trip: {{field, count, ...} of its hash, its PTTL, the last token or false}.
-- A key of another type is not a lock: an error reply, nothing read.
local lock, counter = KEYS[1], KEYS[2]
local kind = redis.call('type', lock).ok
if kind ~= 'hash' and kind ~= 'none' then
  return redis.error_reply('WRONGTYPE ' .. lock .. ' is a ' .. kind .. ', not a lock')
end
return {redis.call('hgetall', lock), redis.call('pttl', lock), redis.call('get', counter) or false}
