package diagnose

import "testing"

// TestTrialA40Replays diagnoses the run.db files of outside trial A40
// again (copied to testdata/corpus): a database/sql pool of 3 on
// PostgreSQL 15 with 20 ms queries (150 req/s of capacity), run at 90 req/s
// (case 3, healthy) and ramped from 50 to 250 req/s (case 1, limited at
// ~143 req/s).
func TestTrialA40Replays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"c3 healthy: full at some scrapes, 0.29 s waited a second at most, no finding", "trialA40-c3-healthy-230543", KindPoolExhaustion, nil, nil},
		{"c3 healthy: a 2.09 s second of waiting on a busy host is no finding either", "trialA40-c3-healthy-224755", KindPoolExhaustion, nil, nil},
		{"c3 healthy: the run judged healthy stays so", "trialA40-c3-healthy-224826", KindPoolExhaustion, nil, nil},
		{"c1 pool: limited at ~143 req/s of 250 offered", "trialA40-c1-pool-223533", KindPoolExhaustion,
			&expect{Critical, [2]int{4, 4}, [2]int{40, 50}, []string{"DB pool exhausted: 3 of 3 connections in use from 0:04"},
				[]string{"of the mean response time"}}, nil},
		{"c1 pool: postgres_exporter's own session is no connection of the pool's", "trialA40-c1-pool-223533", KindPoolExhaustion,
			&expect{Critical, [2]int{4, 4}, [2]int{40, 50}, []string{"busy inside the DB (3 app sessions active, 0 idle in a transaction)"},
				[]string{"4 active, 3 of them the app's (postgres_exporter's own scrape left out), 0 idle in a transaction, for 3 connections in use"}},
			[]string{"4 sessions active"}},
		{"c1 pool, second run", "trialA40-c1-pool-223627", KindPoolExhaustion,
			&expect{Critical, [2]int{2, 2}, [2]int{40, 50}, []string{"DB pool exhausted: 3 of 3 connections in use from 0:02"},
				[]string{"of the mean response time"}}, nil},
		{"c1 pool, third run", "trialA40-c1-pool-230957", KindPoolExhaustion,
			&expect{Critical, [2]int{1, 1}, [2]int{40, 50}, []string{"DB pool exhausted: 3 of 3 connections in use from 0:01"},
				[]string{"of the mean response time"}}, nil},
		{"c1 pool: the saturation title's in flight is Little's law's, its span the overload's", "trialA40-c1-pool-223533", KindSaturation,
			&expect{Warning, [2]int{4, 4}, [2]int{29, 29}, []string{"Saturation at 143 req/s from 0:04 (3.24 in flight): offered load rose to 250 req/s"},
				[]string{"Little's law: 135 req/s × 24.0ms = 3.24 requests in flight (active VUs: 8)", "the load held near its highest from 0:10 to 0:29"}},
			[]string{"(8 in flight)"}},
	})
}
