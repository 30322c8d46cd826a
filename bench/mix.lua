-- wrk script of the load benchmark: POST the mix of AdmissionReviews, report one line of JSON.
--
--   wrk -t1 -c32 -d10s -s bench/mix.lua https://127.0.0.1:8443/validate -- BODIES_FILE [DELAY_MS]
--
-- BODIES_FILE holds one request body per line, already in the mix's weighted order
-- (bench/load.py writes it). Every request is formatted once in init(); request() only picks the next
-- one, so wrk spends its time on the network, not in Lua. Each thread starts at its own offset.
-- DELAY_MS paces the load: after each answer a connection waits a random time, exponentially
-- distributed with mean DELAY_MS (wrk's delay() hook; the wait is not counted in the latency), so C
-- connections offer about C * 1000 / DELAY_MS requests per second, as independent arrivals, instead
-- of as many as the server can take. (A fixed wait would keep the connections in lockstep: bursts of
-- C requests at once.)

local requests = {}
local count = 0
local next_index = 0

local threads_set_up = 0

function setup(thread)
   thread:set("id", threads_set_up)
   threads_set_up = threads_set_up + 1
end

function init(args)
   local file = assert(io.open(args[1], "r"), "cannot open the bodies file " .. tostring(args[1]))
   for line in file:lines() do
      if #line > 0 then
         count = count + 1
         requests[count] = wrk.format("POST", nil, {["Content-Type"] = "application/json"}, line)
      end
   end
   file:close()
   assert(count > 0, "the bodies file is empty")
   next_index = (tonumber(id) or 0) % count
   local mean_delay_ms = tonumber(args[2] or "0") or 0
   if mean_delay_ms > 0 then
      math.randomseed(os.time() + (tonumber(id) or 0) * 7919)
      -- wrk looks for a global delay() after init(): defined only when pacing. It takes whole ms.
      delay = function()
         return math.floor(-mean_delay_ms * math.log(1 - math.random()) + 0.5)
      end
   end
end

function request()
   next_index = next_index % count + 1
   return requests[next_index]
end

function done(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      '{"requests": %d, "duration_us": %d, "bytes": %d, ' ..
      '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
      '"latency_us": {"min": %d, "mean": %.1f, "max": %d, "p50": %d, "p90": %d, "p99": %d, "p99.9": %d}}\n',
      summary.requests, summary.duration, summary.bytes,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout,
      latency.min, latency.mean, latency.max,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
end
