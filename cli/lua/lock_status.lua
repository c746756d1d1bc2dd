-- A snapshot of lock KEYS[1] and its fencing counter KEYS[2], in one round
-- trip: {type of the key, {field, count, ...} of its hash, PTTL, last token}.
local lock, counter = KEYS[1], KEYS[2]
local kind = redis.call('type', lock)['ok']
local holders = {}
if kind == 'hash' then
  holders = redis.call('hgetall', lock)
end
return {kind, holders, redis.call('pttl', lock), redis.call('get', counter) or false}
