-- wrk script: every request signs up a new account (a unique email per thread and request).
local counter = 0
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  run = tostring(os.time()) .. tostring(math.random(1000000))
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"name":"Load %d","email":"load-%s-%d-%d@example.com","password":"password-1"}',
    counter, run, thread_id, counter)
  return wrk.format("POST", "/auth/signup", { ["Content-Type"] = "application/json" }, body)
end
