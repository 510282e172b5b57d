# Reads raw.tsv (measurement, tool, round, key, value), adds the derived per-run numbers
# and the ratios paired by round, and prints one line per (measurement, tool, key): median,
# min, max, count of rounds. Plain POSIX awk (Debian's mawk has no asort). Variables:
# open_dur, idle_vus, idle_dur, collapse_dur, many_vus, many5k_vus, many_dur, many_think,
# open40k_dur, and runs_out: a file to write every run's figures to (measurement, tool, round,
# key, value; derived ones and paired ratios included), for counting the rounds that met a target.
#
# Paired ratios: for each round, the tool's figure ÷ loadlens's figure of the same round
# (key "pr_<key>"); their median and min–max say how far apart the two are whatever the
# machine did in between. "bk_reqs"/"bk_cpu" (on loadlens-off's rows): loadlens with its
# bookkeeping ÷ without it, per round. "vs_http" (https rows): the tool's requests per
# CPU-second over https ÷ its own over http in the same round. "llx_req_per_cpu_s": loadlens's
# requests per CPU-second ÷ the tool's, per round.
BEGIN { FS = OFS = "\t" }

$5 != "NA" && $5 != "" && $5 != "null" {
  run = $1 SUBSEP $2 SUBSEP $3
  runs[run] = 1
  v[run, $4] = $5 + 0
  has[run, $4] = 1
}

function set(run, k, x) { v[run, k] = x; has[run, k] = 1 }
function ok(run, k) { return ((run, k) in has) }

function add(m, t, k, x,   id) {
  id = m SUBSEP t SUBSEP k
  n[id]++
  vals[id, n[id]] = x
}

END {
  # Derived figures of each run.
  for (run in runs) {
    split(run, p, SUBSEP); m = p[1]; t = p[2]
    if (ok(run, "user_s")) {
      cpu = v[run, "user_s"] + v[run, "sys_s"]; set(run, "cpu_s", cpu)
      if (ok(run, "reqs") && v[run, "reqs"] > 0) {
        if (cpu > 0) set(run, "req_per_cpu_s", v[run, "reqs"] / cpu)
        set(run, "cpu_us_per_req", 1e6 * cpu / v[run, "reqs"])
        set(run, "user_us_per_req", 1e6 * v[run, "user_s"] / v[run, "reqs"])
        if (ok(run, "errors")) set(run, "failed_pct", 100 * v[run, "errors"] / v[run, "reqs"])
      }
      if (ok(run, "wall_s") && v[run, "wall_s"] > 0) set(run, "cpu_pct", 100 * cpu / v[run, "wall_s"])
    }
    if (ok(run, "rss_kib")) {
      set(run, "rss_mib", v[run, "rss_kib"] / 1024)
      if (m == "idle") set(run, "rss_per_vu_kib", v[run, "rss_kib"] / idle_vus)
      if (m == "many") set(run, "rss_per_vu_kib", v[run, "rss_kib"] / many_vus)
      if (m == "many5k") set(run, "rss_per_vu_kib", v[run, "rss_kib"] / many5k_vus)
    }
    if (m == "scale") {
      vus = t; sub(/^[^-]*-/, "", vus); vus += 0
      total = ok(run, "rss_sum_kib") ? v[run, "rss_sum_kib"] : v[run, "rss_kib"]
      if (vus > 0 && total > 0) { set(run, "rss_total_mib", total / 1024); set(run, "rss_per_vu_kib", total / vus) }
    }
    if (ok(run, "reqs")) {
      if (m == "open") set(run, "rate", v[run, "reqs"] / open_dur)
      if (m == "idle") set(run, "rate", v[run, "reqs"] / idle_dur)
      if (m == "open40k") set(run, "rate", v[run, "reqs"] / open40k_dur)
      # The closed model's rate against N ÷ (R + Z), R the tool's own mean response time (oha's
      # -q is a rate, not a think time: no such ratio for it). wrk's Lua delay() comes before
      # each connection's first request too, so its requests fill many_dur - many_think.
      if (m == "many" || m == "many5k") {
        set(run, "rate", v[run, "reqs"] / many_dur)
        nv = (m == "many") ? many_vus : many5k_vus
        if (t != "oha" && ok(run, "mean_ms")) {
          nrz = nv / (v[run, "mean_ms"] / 1000 + many_think)
          span = (t == "wrk" && many_dur > many_think) ? many_dur - many_think : many_dur
          set(run, "rate_vs_nrz", v[run, "reqs"] / span / nrz)
          if (ok(run, "steady_rps")) set(run, "steady_vs_nrz", v[run, "steady_rps"] / nrz)
        }
      }
      # Over the run's own length: requests completed during an overshoot count, and so does its time.
      if (m == "collapse") set(run, "rate", v[run, "reqs"] / (ok(run, "run_s") && v[run, "run_s"] > collapse_dur ? v[run, "run_s"] : collapse_dur))
    }
    if (m == "collapse" && ok(run, "wall_s")) set(run, "wall_over_s", v[run, "wall_s"] - collapse_dur)
    if (m == "collapse" && ok(run, "run_s")) set(run, "overshoot_s", v[run, "run_s"] - collapse_dur)
  }
  # Ratios paired by round.
  split("req_per_cpu_s cpu_us_per_req user_us_per_req p99_ms p999_ms rss_per_vu_kib reqs", K, " ")
  for (run in runs) {
    split(run, p, SUBSEP); m = p[1]; t = p[2]; r = p[3]
    ll = m SUBSEP "loadlens" SUBSEP r
    if (t != "loadlens" && (ll in runs))
      for (i in K) if (ok(run, K[i]) && ok(ll, K[i]) && v[ll, K[i]] > 0) set(run, "pr_" K[i], v[run, K[i]] / v[ll, K[i]])
    # The other way round, loadlens ÷ the tool (issue 24's targets are written so: "≥ 2× ghz").
    if (t != "loadlens" && (ll in runs) && ok(run, "req_per_cpu_s") && ok(ll, "req_per_cpu_s") && v[run, "req_per_cpu_s"] > 0)
      set(run, "llx_req_per_cpu_s", v[ll, "req_per_cpu_s"] / v[run, "req_per_cpu_s"])
    if ((m == "closed" || m == "grpc" || m == "ws" || m == "h2") && t == "loadlens-off" && (ll in runs)) {
      if (ok(ll, "reqs") && ok(run, "reqs") && v[run, "reqs"] > 0) set(run, "bk_reqs", v[ll, "reqs"] / v[run, "reqs"])
      if (ok(ll, "req_per_cpu_s") && ok(run, "req_per_cpu_s")) set(run, "bk_cpu", v[ll, "req_per_cpu_s"] / v[run, "req_per_cpu_s"])
    }
    http = "closed" SUBSEP t SUBSEP r
    if (m == "https" && (http in runs) && ok(run, "req_per_cpu_s") && ok(http, "req_per_cpu_s"))
      set(run, "vs_http", v[run, "req_per_cpu_s"] / v[http, "req_per_cpu_s"])
  }
  for (key in has) {
    split(key, q, SUBSEP)
    add(q[1], q[2], q[4], v[key])
    if (runs_out != "") print q[1], q[2], q[3], q[4], v[key] > runs_out
  }
  for (id in n) {
    c = n[id]
    for (i = 1; i <= c; i++) s[i] = vals[id, i]
    for (i = 2; i <= c; i++) {            # insertion sort: a handful of rounds
      x = s[i]; j = i - 1
      while (j >= 1 && s[j] > x) { s[j + 1] = s[j]; j-- }
      s[j + 1] = x
    }
    med = (c % 2) ? s[(c + 1) / 2] : (s[c / 2] + s[c / 2 + 1]) / 2
    split(id, p, SUBSEP)
    print p[1], p[2], p[3], med, s[1], s[c], c
  }
}
