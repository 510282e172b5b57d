-- Memory benchmark: each wrk connection waits 1 s (a think time) before each request.
function delay()
  return 1000
end
