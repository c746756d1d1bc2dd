-- Acquires the reentrant lock KEYS[1] for the owner field ARGV[2] with a lease
-- of ARGV[1] ms (Redisson's RLock layout: a hash whose one field is the
-- owner, with a hold count of 1 since re-entries are counted by the client).
-- KEYS[2] is the fencing counter (Redisson's RFencedLock key), KEYS[6] the
-- owner's grant key (tokens.lua, put before this script).
--
-- KEYS[3] is the owner's release latch (see release.lua) and ARGV[3] this
-- attempt's request id: an attempt older than the owner's last release or
-- withdrawal is refused. A timed-out attempt can still reach a paused server
-- later; the client withdraws it, and the withdrawal outranks it whichever
-- runs first.
--
-- KEYS[5] holds the owners who will wait (ARGV[4] = '1') and found the lock
-- held, scored by when they first did (server time, ms). A release that wakes
-- them turns it into KEYS[4], their turn (release.lua): while it lasts, a free
-- lock goes only to the longest waiting of them, not to an owner that just
-- arrived or the one that released, which need no wake-up and would otherwise
-- always win. Its grant ends the turn; the others keep their place.
--
-- Returns the fencing token, an integer, when the caller holds the lock: a
-- fresh grant, or the caller's own grant retried under its request id (its
-- first reply was lost), which keeps its token. The caller's field found
-- under another request id is granted afresh, with a new token (tokens.lua).
-- Otherwise returns {the holder's PTTL}: the reply's type tells the two
-- apart, as Redisson's acquire tells a grant (nil) from a PTTL, and a grant
-- costs no array. A refused stale attempt gets {-1} (nothing to wait for),
-- one outside the waiters' turn {the turn's PTTL}.
--
-- Nothing is written before every command that can fail has run: a refused
-- lease, a counter that is not one, or an ACL that denies TIME, GET or the
-- counter's or the grant key's write leave the lock untouched. The one write
-- after the hash's (PEXPIRE, which only an ACL can refuse) is undone if
-- refused: a hash left without an expiry would be a lock nobody can take again.
local lock, counter, latch, turn, waiting, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local lease, owner, request, will_wait = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

-- DLOCK_DURATION_MAX_MS: a year.
if not string.find(lease, '^[1-9]%d*$') or tonumber(lease) > 31536000000 then
  return redis.error_reply('ERR acquire: the lease must be a whole number of ms from 1 to 31536000000, got ' .. lease)
end

-- Request ids of one client are "<client id>:<count>": a later one is longer
-- or, as long, greater.
local last_release = redis.call('get', latch)
if last_release and (#last_release > #request or (#last_release == #request and last_release >= request)) then
  return {-1}
end

local holder_pttl = redis.call('pttl', lock)
if holder_pttl == -2 then
  -- A single attempt (no wait) waits its turn too: bindings try once before
  -- they block.
  local turn_pttl = redis.call('pttl', turn)
  if turn_pttl > 0 and redis.call('zrange', turn, 0, 0)[1] ~= owner then
    return {turn_pttl}
  end
  local token, bad_counter = fresh_grant(counter, grant, request, lease)
  if not token then
    return bad_counter
  end
  redis.call('hset', lock, owner, 1)
  local expiring = redis.pcall('pexpire', lock, lease)
  if type(expiring) == 'table' and expiring.err then
    redis.call('del', lock)
    return expiring
  end
  if turn_pttl > 0 then
    redis.call('zrem', turn, owner)
    redis.call('zunionstore', waiting, 2, waiting, turn, 'aggregate', 'min')
    redis.call('del', turn)
    redis.call('pexpire', waiting, lease)
  end
  return token
end

if redis.call('hexists', lock, owner) == 1 then
  local token, bad_counter = holders_token(counter, grant, request, lease)
  if not token then
    return bad_counter
  end
  redis.call('pexpire', lock, lease)
  return token
end

-- Best effort (pcall): out of memory, the caller still learns the PTTL. The
-- set outlives the holder's lease by a second: a waiter retries when that
-- lease ends at the latest, and stays in the set when it fails again.
if will_wait == '1' then
  local now = redis.call('time')
  redis.pcall('zadd', waiting, 'nx', now[1] * 1000 + math.floor(now[2] / 1000), owner)
  local keep_ms = math.max(holder_pttl, 0) + 1000
  if redis.call('pttl', waiting) < keep_ms then
    redis.pcall('pexpire', waiting, keep_ms)
  end
end
return {holder_pttl}
