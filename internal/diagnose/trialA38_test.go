package diagnose

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// TestTrialA38Replays diagnoses the run.db files of outside trial A38
// again (copied to testdata/corpus): a Tomcat pool of 4 threads, a DB
// whose heavy query used its CPU behind pools of 20 and 100 connections,
// a single-row lock behind 1 and 2 instances, and the healthy Spring twin.
func TestTrialA38Replays(t *testing.T) {
	replayTrials(t, []replayCase{
		{"threads: Tomcat's 4 threads all busy at 9% CPU name the thread pool", "trialA38-threads", KindThreadPoolFull,
			&expect{Critical, [2]int{2, 2}, [2]int{49, 49}, []string{"App request threads all busy: 4 of 4 Tomcat threads from 0:02 while App used 9.56% of its CPU"},
				[]string{"4 is the most it ever had busy, its ceiling (the maximum itself, tomcat_threads_config_max_threads, was not scraped)", "9.56% of the 1 core it may use"}},
			[]string{"the errors came while App was short of CPU"}},
		{"threads (trial 2): errors from 0:32, after the saturation finding's seconds, follow the threads that stayed busy, not the host's CPU", "trial2s38-threads", KindThreadPoolFull,
			&expect{Critical, [2]int{0, 100}, [2]int{40, 100}, []string{"Tomcat threads from"}, []string{"every thread stayed busy to"}},
			[]string{"the errors came while App was short of CPU"}},
		{"spring-pool: threads waiting for a DB connection are the pool's symptom", "trialA38-springpool", KindThreadPoolFull, nil, nil},
		{"spring-healthy: a healthy Tomcat has no full thread pool", "trialA38-springhealthy", KindThreadPoolFull, nil, nil},
		{"spring-healthy: JIT warm-up is no drift", "trialA38-springhealthy", KindLatencyDrift, nil, nil},
		{"heavy, pool 20: a queue at 37 of 40 req/s is saturation, not drift", "trialA38-heavy20", KindLatencyDrift, nil, nil},
		{"heavy, pool 20: 20 sessions active, but the shared host's CPU was as busy before the pool filled: the DB's side, not its CPU", "trialA38-heavy20", KindPoolExhaustion,
			&expect{Critical, [2]int{10, 10}, [2]int{42, 42}, []string{"20 of 20 connections in use from 0:10", ": its connections were busy inside the DB (19 app sessions active, 0 idle in a transaction), running queries or waiting on locks there; the DB host's CPU was as busy before the pool filled, so it does not tell which"},
				[]string{"20 active, 19 of them the app's (postgres_exporter's own scrape left out), 0 idle in a transaction, for 20 connections in use"}},
			[]string{"case study 5", "hold connections for less time", "the DB is the bottleneck"}},
		{"take, node_exporter on a busy shared host (trial 2): a row lock is not read as the DB's CPU", "trial2s38-take-node", KindPoolExhaustion,
			&expect{Critical, [2]int{0, 100}, [2]int{0, 100}, []string{"busy inside the DB", "the DB host's CPU was as busy before the pool filled"}, nil},
			[]string{"the DB is the bottleneck", "give the DB more CPU"}},
		{"take, 1 instance: 21 sessions active, none idle in a transaction: the pool waits on the DB", "trialA38-take1", KindPoolExhaustion,
			&expect{Critical, [2]int{9, 9}, [2]int{46, 46}, []string{": its connections were busy inside the DB (20 app sessions active, 0 idle in a transaction), running queries or waiting on locks there; the DB's CPU was not scraped"}, nil},
			[]string{"case study 5", "hold connections for less time"}},
		{"take, 2 instances: the same, each pool", "trialA38-take2", KindPoolExhaustion,
			&expect{Critical, [2]int{9, 9}, [2]int{45, 46}, []string{"busy inside the DB (40 app sessions active"}, nil},
			[]string{"case study 5"}},
		{"case 5 (trial 4): connections idle in a transaction keep the pool's own remedy", "trial4-case5", KindPoolExhaustion,
			&expect{Critical, [2]int{4, 4}, [2]int{0, 100}, []string{"DB pool exhausted: 4 of 4"}, nil},
			[]string{"the DB is the bottleneck", "busy inside the DB", "waited inside the DB"}},
		{"heavy, pool 100: a queue at 36 of 40 req/s is saturation, not drift", "trialA38-heavy100", KindLatencyDrift, nil, nil},
		{"heavy, pool 100: no full pool, but the DB's sessions multiplied while its CPU was busy", "trialA38-heavy100", KindDBBusy,
			&expect{Warning, [2]int{28, 28}, [2]int{32, 32}, []string{"DB busy while the target fell behind: 28 sessions active in it from 0:28 (3 at the start), its CPU 100% busy: the requests waited on the DB's queries"},
				[]string{"3 at the run's first scrapes, 28 from 0:28 to 0:32 (medians)"}}, nil},
		{"heavy, pool 20: the pool finding says it, not a second finding", "trialA38-heavy20", KindDBBusy, nil, nil},
	})
}

// TestTrialA38ErrorsFollowThreads checks that the errors of the Tomcat run
// lead with its full thread pool, not with the CPU its host's other
// processes took (the app used 9.6 % of its core).
func TestTrialA38ErrorsFollowThreads(t *testing.T) {
	_, fs := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA38-threads.db"))
	e, ok := findKind(fs, KindErrorsAtLoad)
	if !ok || len(e.Remedies) < 2 {
		t.Fatalf("no errors finding with remedies; got %s", titles(fs))
	}
	if want := "the errors came while App's request threads were all busy while its CPU idled (the thread-pool-full finding)"; !strings.HasPrefix(e.Remedies[0], want) {
		t.Errorf("the errors' first remedy is %q, want it to start %q", e.Remedies[0], want)
	}
	if want := "find what each request waits on while it holds a thread"; !strings.HasPrefix(e.Remedies[1], want) {
		t.Errorf("the errors' second remedy is %q, want the thread pool's first (%q)", e.Remedies[1], want)
	}
}

// TestNewRulesQuietOnTheCorpus runs the whole recorded corpus: the rules
// trial A38 added fire only on the runs that have their bottleneck, never
// on a healthy run or one limited by something else.
func TestNewRulesQuietOnTheCorpus(t *testing.T) {
	allowed := map[string][]string{
		KindThreadPoolFull: {"trialA38-threads", "trial2s38-threads"},
		KindDBBusy:         {"trialA38-heavy100"},
		KindCacheCPU:       {"trialA39-rediscpu", "trialA39-rediscpu-rerun", "trial2s39-rediscpu"},
	}
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.db"))
	if len(paths) < 30 {
		t.Fatalf("only %d runs in testdata/corpus", len(paths))
	}
	for _, p := range paths {
		run := strings.TrimSuffix(filepath.Base(p), ".db")
		_, fs := diagnoseRunDB(t, p)
		for kind, where := range allowed {
			if f, ok := findKind(fs, kind); ok && !slices.Contains(where, run) {
				t.Errorf("%s: unexpected %s finding: %s", run, kind, title(f))
			}
		}
		// the pool finding's DB side: case study 1's and 3's busy DB on a busy shared host, the single-row lock, and trial A40's (stop 40) 20 ms queries on MariaDB and PostgreSQL
		if f, ok := findKind(fs, KindPoolExhaustion); ok && strings.Contains(title(f), "inside the DB") != slices.Contains([]string{"trialA38-take1", "trialA38-take2", "trialA38-heavy20", "trial4-case3-busy-db", "trial2s38-take-node", "lockdb-read-node", "trialA40-maria1", "trialA40-maria2",
			"trialA40-c1-pool-223533", "trialA40-c1-pool-223627", "trialA40-c1-pool-230957", "trialA3-c1-over", "trialA5-mariadb-pool3"}, run) {
			t.Errorf("%s: the pool finding's DB side: %s", run, title(f))
		}
		// what the sessions waited on (pgwait.go): only the recorded row lock and cold reads name it
		if f, ok := findKind(fs, KindPoolExhaustion); ok && strings.Contains(title(f), "waited on a row lock") != slices.Contains([]string{"lockdb-take", "lockdb-take-node"}, run) {
			t.Errorf("%s: the pool finding's DB side: %s", run, title(f))
		}
		if f, ok := findKind(fs, KindPoolExhaustion); ok && strings.Contains(title(f), "waited on I/O") != (run == "lockdb-read") {
			t.Errorf("%s: the pool finding's DB side: %s", run, title(f))
		}
		// a shared host's CPU, busy before the pool filled, names no DB (trial 2); trial A3's seq scans filled it from the first second, as their load
		if f, ok := findKind(fs, KindPoolExhaustion); ok && strings.Contains(title(f), "the DB is the bottleneck") != slices.Contains([]string{"trialA3-c3-slowq", "trialA3-c3-slowq-b"}, run) {
			t.Errorf("%s: the pool finding's DB side: %s", run, title(f))
		}
	}
}

// TestThreadPoolReadsItsMaximum gives the Tomcat run the maximum the spring
// preset now keeps: at 4 the pool was full and the finding states the
// configured maximum; at 200 the 4 busy threads were no full pool.
func TestThreadPoolReadsItsMaximum(t *testing.T) {
	for _, tc := range []struct {
		limit float64
		want  *expect
	}{
		{4, &expect{Critical, [2]int{2, 2}, [2]int{49, 49}, []string{"4 of 4 Tomcat threads from 0:02"},
			[]string{"fewest 3 busy of the pool's maximum of 4 (tomcat_threads_config_max_threads, name=http-nio-127.0.0.1-18201, role=app, target=app)"}}},
		{200, nil},
	} {
		in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA38-threads.db"))
		busy := in.Series.Find("tomcat_threads_busy_threads")
		if len(busy) != 1 {
			t.Fatalf("%d busy-thread series", len(busy))
		}
		limit := &series.Series{Name: "tomcat_threads_config_max_threads", Labels: busy[0].Labels, Kind: series.Gauge}
		for _, p := range busy[0].Points {
			limit.Points = append(limit.Points, series.Point{Sec: p.Sec, Value: tc.limit})
		}
		in.Series = append(in.Series, limit)
		expectKind(t, Diagnose(in), KindThreadPoolFull, tc.want)
	}
}

// TestPoolDBSideReadsTheDBCPU gives the single-row-lock run a DB CPU: idle,
// the sessions waited inside the DB (a lock or I/O); busy, the DB is the
// bottleneck; between, the DB's side is not told.
func TestPoolDBSideReadsTheDBCPU(t *testing.T) {
	for _, tc := range []struct {
		cpu         float64
		title, lead string // "": the pool's own remedies
	}{
		{0.05, "while its CPU idled (5% of its CPUs busy): a lock many requests wait on, or I/O", "read what the active sessions wait on"},
		{0.97, "the DB is the bottleneck, the pool its symptom (20 app sessions active in it, its CPU 97% of its CPUs busy)", "make the queries the sessions run cheaper"},
		{0.7, "", ""},
	} {
		in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA38-take1.db"))
		up := in.Series.Find("up", "target", "pg")
		if len(up) != 1 {
			t.Fatalf("%d up series of pg", len(up))
		}
		cpu := &series.Series{Name: "process_cpu_usage", Labels: up[0].Labels, Kind: series.Gauge}
		for _, p := range up[0].Points {
			cpu.Points = append(cpu.Points, series.Point{Sec: p.Sec, Value: tc.cpu})
		}
		in.Series = append(in.Series, cpu)
		f, ok := findKind(Diagnose(in), KindPoolExhaustion)
		if !ok {
			t.Fatalf("DB CPU %v: no pool finding", tc.cpu)
		}
		if tc.title == "" {
			if strings.Contains(title(f), "inside the DB") || strings.Contains(title(f), "the DB is the bottleneck") || !strings.Contains(f.Remedies[0], "case study 5") {
				t.Errorf("DB CPU %v: the DB's side told: %s / %s", tc.cpu, title(f), f.Remedies[0])
			}
			continue
		}
		if !strings.Contains(title(f), tc.title) || !strings.HasPrefix(f.Remedies[0], tc.lead) {
			t.Errorf("DB CPU %v: got %q, first remedy %q; want %q and %q", tc.cpu, title(f), f.Remedies[0], tc.title, tc.lead)
		}
	}
}
