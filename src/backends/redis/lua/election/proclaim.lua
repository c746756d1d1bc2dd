-- The leader publishes a new value for its term: KEYS[1] is the election's
-- lock, KEYS[2] the leader's hash, KEYS[3] the stream of leaders; ARGV[1] the
-- owner field, ARGV[2] its term, ARGV[3] the value.
--
-- Returns 1 published, 0 when that owner does not lead in that term (nothing
-- written): its lease was lost, or it resigned.
local lock, leader, leaders = KEYS[1], KEYS[2], KEYS[3]
local owner, term, value = ARGV[1], ARGV[2], ARGV[3]
if redis.call('hexists', lock, owner) == 0 or redis.call('hget', leader, 'owner') ~= owner or
    redis.call('hget', leader, 'term') ~= term then
  return 0
end
local since = redis.call('hget', leader, 'since')
redis.call('hset', leader, 'value', value)
redis.call('xadd', leaders, 'MAXLEN', '~', '1000', '*', 'term', term, 'value', value, 'since', since)
return 1
