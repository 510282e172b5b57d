package diagnose

// KindDBBusy is a target that fell behind while the DB's active sessions
// multiplied and its CPU was busy, with no full pool to name: the
// requests' time went to the DB's queries.
const KindDBBusy = "db-busy"

// DB-busy thresholds: the active sessions over the saturated seconds
// (median) at least 3× those of the run's first scrapes and at least 5
// (trial A38's heavy join behind a pool of 100: 3 at the start, 28 while
// 31 of 40 req/s completed, PostgreSQL on 1.2–1.5 cores).
const (
	dbBusyRise  = 3.0
	dbBusyLeast = 5.0
	dbBusyStart = 3     // the run's first scrapes that say how many sessions idle load keeps active
	dbBusyOwn   = pgOwn // the exporter's own sessions in the counts the thresholds were set on: postgres_exporter's, in the 3 and the 28
)

// busyRise reports whether the active sessions over the saturated seconds
// (during) rose from those at the start by db-busy's thresholds. Each
// count holds its exporter's own (own), swapped for the one the thresholds
// were set on: MySQL's threads running are judged as PostgreSQL's active
// sessions were, whose verdicts stay those calibrated.
func busyRise(start, during, own float64) bool {
	start, during = start-own+dbBusyOwn, during-own+dbBusyOwn
	return during >= dbBusyLeast && during >= dbBusyRise*max(start, 1)
}

// busySessions is the DB's sessions db-busy reads: PostgreSQL's active
// ones, kept or not beside those idle in a transaction, else MySQL's
// threads running (dbSessionsOf).
func (c *context) busySessions() (dbSessions, bool) {
	if active := c.pgState("active"); active != nil {
		return dbSessions{engine: enginePostgres, active: active, own: pgOwn, noun: " sessions active"}, true
	}
	return c.dbSessionsOf()
}

// dbBusy names the DB when a saturation finding's seconds had its active
// sessions (PostgreSQL's; MySQL's threads running) multiplied and its CPU
// busy, the app's CPU not: the app waited on the DB. A full pool's finding
// says it (pooldb.go) when there is one.
func dbBusy(c *context, fs []Finding) []Finding {
	sat := saturationUnlessPool(fs)
	d, ok := c.busySessions()
	if sat == nil || !ok || len(d.active.Points) < dbBusyStart {
		return nil
	}
	from, to := sat.From, sat.To
	src := c.ofSeries(d.active)
	s0, s1 := d.active.Points[0].Sec, d.active.Points[dbBusyStart-1].Sec
	if s1 >= from {
		return nil // no scrapes before the target fell behind
	}
	if !busyRise(aggregate(c.values(src), StatMedian, s0, s1), aggregate(c.values(src), StatMedian, from, to), d.own) {
		return nil
	}
	cpu, ok := c.dbCPU(from, to)
	if !ok || cpu.median < cpuBusy || c.appCPUBusy(from, to) {
		return nil
	}
	b := newBuilder(KindDBBusy, Warning)
	w := busyWords[d.engine]
	a0 := b.add(c.fig(src, StatMedian, s0, s1, UnitCount, "DB "+w.what+" at the run's first scrapes (median)"))
	a1 := b.add(c.fig(src, StatMedian, from, to, UnitCount, "DB "+w.what+" while the target fell behind (median)"))
	used := b.add(c.fig(cpu.source, StatMedian, from, to, UnitFraction, "the DB's CPU, "+cpu.what+" (median)"))
	onset := b.second(from, StatOnset, "the first second of the saturation finding")
	b.title("DB busy while the target fell behind: ", a1, d.noun, " in it from ", onset, " (", a0,
		" at the start), its CPU ", used, " ", cpu.what, ": the requests waited on the DB's queries")
	b.evidence(a1, w.whose+" (", name(titled(d.active)), "): ", a0, " at the run's first scrapes, ", a1,
		" from ", onset, " to ", b.second(to, StatSecond, "the last second of the saturation finding"), " (medians"+w.own+"), while the target completed less than it was offered")
	whose := "the DB's CPU meanwhile ("
	if cpu.host {
		whose = "the DB host's CPU meanwhile, every process on it counted ("
	}
	b.evidence(used, whose, name(cpu.label), "): ", used, " ", cpu.what, " (median)")
	b.f.Remedies = append([]string(nil), sideRemedies(d.engine, dbCPUBusy)...)
	return []Finding{b.done(from, to)}
}

// busyWords are db-busy's words for the sessions of each DB engine, as
// dbsessions.go names them: what the figures count, whose they are in the
// evidence, and what the medians hold besides the app's.
var busyWords = map[string]struct{ what, whose, own string }{
	enginePostgres: {"sessions active", "the DB's active sessions", ""},
	engineMySQL:    {"threads running", "the DB's running threads", ", the exporter's own among them"},
}

// appCPUBusy reports whether a CPU of role app was busy over from–to: the
// app's own CPU finding then speaks for the slowdown.
func (c *context) appCPUBusy(from, to int) bool {
	for _, s := range c.cpuSubjects() {
		if s.name == "App" && aggregate(c.values(s.source), StatMedian, from, to) >= cpuBusy {
			return true
		}
	}
	return false
}
