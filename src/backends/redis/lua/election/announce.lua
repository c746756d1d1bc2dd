-- The election's acquire: the lock's acquire.lua runs first, as the function
-- acquire_lock() put before this text (election_resource.cpp composes them),
-- with the lock's KEYS[1..7] and ARGV[1..4]. A grant of a term not yet
-- recorded records its leader in the same script, so that no client ever
-- sees a leader without its record: KEYS[8] is the leader's hash (owner,
-- value, term, since), KEYS[9] the stream of leaders that observers follow,
-- ARGV[5] the candidate's value. A retried grant (its reply was lost) keeps
-- its term and is not recorded twice.
local reply = acquire_lock()
if type(reply) ~= 'number' then
  return reply
end
local leader, leaders = KEYS[8], KEYS[9]
local term = string.format('%d', reply)
if redis.call('hget', leader, 'term') ~= term then
  local since = string.format('%d', server_now_ms())
  redis.call('hset', leader, 'owner', ARGV[2], 'value', ARGV[5], 'term', term, 'since', since)
  redis.call('xadd', leaders, 'MAXLEN', '~', '1000', '*', 'term', term, 'value', ARGV[5], 'since', since)
end
return reply
