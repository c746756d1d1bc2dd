-- Acquires the reentrant lock KEYS[1] for the owner field ARGV[2] with a lease
-- of ARGV[1] ms (Redisson's RLock layout: a hash whose one field is the
-- owner, with a hold count of 1 since re-entries are counted by the client).
-- KEYS[2] is the fencing counter (Redisson's RFencedLock key), KEYS[6] the
-- owner's grant key (tokens.lua, put before this script, as hold_checks.lua
-- is: the lease's bounds and the latch's order).
--
-- KEYS[3] is the owner's release latch (see release.lua) and ARGV[3] this
-- attempt's request id: an attempt older than the owner's last release or
-- withdrawal is refused. A timed-out attempt can still reach a paused server
-- later; the client withdraws it, and the withdrawal outranks it whichever
-- runs first.
--
-- KEYS[5] and KEYS[7] are the waiting owners (waiters.lua, also put before
-- this script), KEYS[4] the owner whose turn a release named. ARGV[4] = '1'
-- for an attempt of an owner that will wait: it joins the waiting owners
-- when refused, and while another owner's turn lasts a free lock is refused
-- to it. A single attempt (ARGV[4] = '0') neither joins nor waits for a
-- turn: a free lock is always its, as ReentrantLock.tryLock() barges. A
-- grant takes its owner out of the waiting owners, and ends its turn.
--
-- Returns the fencing token, an integer, when the caller holds the lock: a
-- fresh grant, or the caller's own grant retried under its request id (its
-- first reply was lost), which keeps its token. The caller's field found
-- under another request id is granted afresh, with a new token (tokens.lua).
-- Otherwise returns {the holder's PTTL}, and for an owner that will wait
-- {the holder's PTTL, the number a release names its turn by}: the reply's
-- type tells a grant from a refusal, as Redisson's acquire tells a grant
-- (nil) from a PTTL, and a grant costs no array. A refused stale attempt
-- gets {-1} (nothing to wait for), one refused by another's turn {-1, its
-- number}: it does not try again when that turn ends, since its own turn is
-- named when it is the longest-waiting (release.lua), and a lock left free
-- with no turn (the named owner died) is the head's, which its client's
-- heartbeat wakes (wait_beat.lua). So a waiter costs one refused attempt
-- however many hand-offs it waits through.
--
-- ARGV[5] = '1' for the non-reentrant lock: the owner's field found under
-- another request id is another acquire of the same owner (a thread sharing
-- an object-owned lock's owner id), refused as another owner's would be; only
-- the grant's own retry gets its token.
--
-- Nothing is written before every command that can fail has run: a refused
-- lease, a counter that is not one, or an ACL that denies TIME, GET or the
-- counter's or the grant key's write leave the lock untouched. The one write
-- after the hash's (PEXPIRE, which only an ACL can refuse) is undone if
-- refused: a hash left without an expiry would be a lock nobody can take again.
local lock, counter, latch, turn, waiting, grant, deadlines = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
local lease, owner, request, will_wait = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1'
local reentrant = ARGV[5] ~= '1'

local refused = bad_lease(lease)
if refused then
  return refused
end

-- Older than the owner's last release or withdrawal (hold_checks.lua).
if already_released(latch, request) then
  return {-1}
end

local holder_pttl = redis.call('pttl', lock)
if holder_pttl == -2 then
  local turn_owner = will_wait and redis.call('get', turn)
  if turn_owner and turn_owner ~= owner then
    join_waiters(waiting, deadlines, owner, server_now_ms())
    return {-1, turn_number(owner)}
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
  leave_waiters(waiting, deadlines, owner)
  if turn_owner then
    redis.call('del', turn)
  end
  return token
end

if redis.call('hexists', lock, owner) == 1 then
  local token = retried_token(grant, request)
  if not token and reentrant then
    local bad_counter
    token, bad_counter = fresh_grant(counter, grant, request, lease)
    if not token then
      return bad_counter
    end
  end
  if token then
    redis.call('pexpire', lock, lease)
    return token
  end
end

if not will_wait then
  return {holder_pttl}
end
join_waiters(waiting, deadlines, owner, server_now_ms())
return {holder_pttl, turn_number(owner)}
