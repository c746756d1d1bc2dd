-- The owner field ARGV[1] stops waiting (its wait ran out, it was cancelled,
-- or its acquire failed): it leaves the queue, and a grant the release had
-- already made to it passes to the next waiter (or frees the lock, with
-- Redisson's release message on KEYS[5]). ARGV[2] is the wake-up channels'
-- prefix. Returns 1.
local channel = KEYS[5]
local field, wake_prefix = ARGV[1], ARGV[2]

leave_queue(field)
if redis.call('hexists', lock, field) == 1 then
  pass_on(server_clock_us(), wake_prefix, channel)
end
return 1
