package diagnose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrialA3PoolWhy diagnoses again trial A3's pgxpool runs (copied to
// testdata/corpus): c3-slowq (a pool of 20, a seq scan of 1.5 M rows a
// request, PostgreSQL's host CPU full from 0:00 at a load full from 0:00)
// names the DB's CPU and counts the sessions beyond the pool as not the
// pool's; c1-over (a pool of 4, pg_sleep(0.02) a request, the DB idle)
// names the pool's size; the healthy runs have no full pool.
func TestTrialA3PoolWhy(t *testing.T) {
	slowNever := []string{"as busy before the pool filled", "so it does not tell which", "25 app sessions active", "26 app sessions active", "27 app sessions active"}
	cases := []replayCase{
		{"c1-over: 4 sessions in an idle DB, no lock, no reads: the pool's size is the limit", "trialA3-c1-over", KindPoolExhaustion,
			&expect{Critical, [2]int{0, 0}, [2]int{0, 100}, []string{"4 of 4 connections in use from 0:00",
				"while the DB had headroom (its CPU 6.19% busy, no lock queued, its disk", "each query's own time held them: the pool's 4 connections are the limit"},
				[]string{"each request held a connection 20.4ms", "no exclusive or access-exclusive lock held at any scrape"}},
			[]string{"a lock many requests wait on, or I/O", "the DB is the bottleneck"}},
		{"c1-40pct: healthy, no full pool", "trialA3-c1-40pct", KindPoolExhaustion, nil, nil},
		{"c4-redis-nohog: healthy, no full pool", "trialA3-c4-redis-nohog", KindPoolExhaustion, nil, nil},
	}
	for _, run := range []string{"c3-slowq", "c3-slowq-b"} {
		cases = append(cases, replayCase{run + ": full from 0:00 at a load full from 0:00, the DB's CPU at 100%: the DB's CPU, the query", "trialA3-" + run, KindPoolExhaustion,
			&expect{Critical, [2]int{0, 0}, [2]int{0, 100}, []string{"20 of 20 connections in use from 0:00", ": the DB is the bottleneck, the pool its symptom (",
				" more than the pool's 20 connections in use: PostgreSQL's parallel workers or other clients", "its CPU 100% busy"},
				[]string{"from the run's first second, as the load was"}},
			slowNever})
	}
	for _, run := range []string{"open30", "open70", "closed30", "closed70"} {
		for _, n := range []string{"", "-b"} {
			cases = append(cases, replayCase{"c6-" + run + n + ": healthy, no full pool", "trialA3-c6-" + run + n, KindPoolExhaustion, nil, nil})
		}
	}
	replayTrials(t, cases)
}

// TestTrialA3PoolWhyRemedies checks the remedies follow the evidence: the
// query first where the DB's CPU is at its limit, the pool's size first
// where the DB had headroom on every resource read.
func TestTrialA3PoolWhyRemedies(t *testing.T) {
	for _, tc := range []struct{ db, lead, never string }{
		{"trialA3-c3-slowq", "make the queries the sessions run cheaper", "raise the pool's size"},
		{"trialA3-c3-slowq-b", "make the queries the sessions run cheaper", "raise the pool's size"},
		{"trialA3-c1-over", "raise the pool's size (the DB had headroom: its CPU 6.19% busy, no lock queued", "for a lock:"},
	} {
		_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
		f, ok := findKind(fs, KindPoolExhaustion)
		if !ok || len(f.Remedies) == 0 {
			t.Errorf("%s: no pool finding with remedies; got %s", tc.db, titles(fs))
			continue
		}
		if !strings.HasPrefix(f.Remedies[0], tc.lead) || strings.Contains(strings.Join(f.Remedies, "\n"), tc.never) {
			t.Errorf("%s: remedies %q; want the first to start %q and none to say %q", tc.db, f.Remedies, tc.lead, tc.never)
		}
	}
}
