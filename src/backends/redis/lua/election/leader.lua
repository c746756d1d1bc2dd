-- Who leads the election now: KEYS[1] is its lock, KEYS[2] the leader's hash
-- (announce.lua), KEYS[3] the stream of leaders. The hash names the last
-- leader granted; it leads while its field is in the lock (a resign, a lost
-- lease or an expiry ended it otherwise).
--
-- Returns {the stream's last entry id ('0-0' when empty)} when nobody leads,
-- else {that id, value, term, since}: the id tells an observer where the
-- stream stood when this leader was read, in the same script.
local lock, leader, leaders = KEYS[1], KEYS[2], KEYS[3]
local newest = redis.call('xrevrange', leaders, '+', '-', 'COUNT', 1)
local last_id = newest[1] and newest[1][1] or '0-0'
local owner = redis.call('hget', leader, 'owner')
if not owner or redis.call('hexists', lock, owner) == 0 then
  return {last_id}
end
local record = redis.call('hmget', leader, 'value', 'term', 'since')
return {last_id, record[1], record[2], record[3]}
