# Reads raw.tsv (measurement, tool, round, key, value), adds the derived per-run numbers,
# and prints one line per (measurement, tool, key): median, min, max, count of rounds.
# Plain POSIX awk (Debian's mawk has no asort). Variables: open_dur, idle_vus.
BEGIN { FS = OFS = "\t" }

$5 != "NA" && $5 != "" && $5 != "null" {
  run = $1 SUBSEP $2 SUBSEP $3
  runs[run] = 1
  v[run, $4] = $5 + 0
  has[run, $4] = 1
}

function add(m, t, k, x,   id) {
  id = m SUBSEP t SUBSEP k
  n[id]++
  vals[id, n[id]] = x
}

END {
  for (run in runs) {
    split(run, p, SUBSEP); m = p[1]; t = p[2]
    for (key in has) {
      split(key, q, SUBSEP)
      if (q[1] SUBSEP q[2] SUBSEP q[3] == run) add(m, t, q[4], v[key])
    }
    cpu = v[run, "user_s"] + v[run, "sys_s"]
    if ((run, "user_s") in has) add(m, t, "cpu_s", cpu)
    if (((run, "reqs") in has) && cpu > 0) add(m, t, "req_per_cpu_s", v[run, "reqs"] / cpu)
    if (((run, "wall_s") in has) && v[run, "wall_s"] > 0) add(m, t, "cpu_pct", 100 * cpu / v[run, "wall_s"])
    if ((run, "rss_kib") in has) {
      add(m, t, "rss_mib", v[run, "rss_kib"] / 1024)
      if (m == "idle") add(m, t, "rss_per_vu_kib", v[run, "rss_kib"] / idle_vus)
    }
    if (m == "open" && ((run, "reqs") in has)) add(m, t, "rate", v[run, "reqs"] / open_dur)
    if (m == "idle" && ((run, "reqs") in has)) add(m, t, "rate", v[run, "reqs"] / idle_dur)
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
