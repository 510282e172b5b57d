package diagnose

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestDefectsStayFixed checks each defect issue 10 and issue 9 reported
// against the run that showed it: what the finding must say, and what it
// must never say again.
func TestDefectsStayFixed(t *testing.T) {
	cases := []struct {
		name  string
		in    func(t *testing.T) Input
		kind  string
		want  *expect
		never []string // substrings no finding's title or evidence may hold
	}{
		{"lock-step failures: errors from the first failing second, empty seconds skipped", lockStep, KindErrorsAtLoad,
			&expect{Critical, [2]int{2, 2}, [2]int{10, 10}, []string{"Errors from 0:02 at a load served before (95 req/s with 95 VUs)", "100.00% of requests failed"},
				[]string{"first failing second: 95 of 95 requests failed", "before 0:02: 0.00% of 190 requests failed, at up to 95 req/s"}},
			[]string{"from 0:10", "stayed under"}},
		{"database/sql: full from 0:01, waits and wait time named for what they are", goSQLFullEarly, KindPoolExhaustion,
			&expect{Critical, [2]int{1, 1}, [2]int{14, 14}, []string{"DB pool exhausted: 10 of 10 connections in use from 0:01, up to 40 waits for a connection a second"},
				[]string{"at most 537 s spent waiting for a connection per second of the run (wait time, added as each wait ends; not a number of waiters)",
					"14 scrapes from 0:01 to 0:14: 10 connections in use at each"}},
			[]string{"537 waiting", "537 requests", "from 0:07", "of 14 scrapes"}},
		{"lag on a host busy with other processes is not blamed on loadlens", busyHost(1.94, 0), KindHostBusy,
			&expect{Critical, [2]int{5, 5}, [2]int{15, 15}, []string{"The generator's host was short of CPU from 0:05: it was busy with other processes, 97% of 2 cores in use, loadlens used 2%",
				"lag p99 up to 80"}, []string{"loadlens itself: 0.04 cores (2% of the host)"}},
			[]string{"The load generator is the bottleneck"}},
		{"lag while the hypervisor took the CPU", busyHost(0.6, 0.5), KindHostBusy,
			&expect{Critical, [2]int{5, 5}, [2]int{15, 15}, []string{"the hypervisor took 25% of its 2 cores (steal)"}, nil},
			[]string{"The load generator is the bottleneck"}},
		{"lag with CPU to spare stays the generator's, with both CPU figures", busyHost(0.3, 0), KindGeneratorBound,
			&expect{Critical, [2]int{5, 5}, [2]int{15, 15}, []string{"scheduler lag p99 up to 80"},
				[]string{"meanwhile loadlens used 0.04 cores and the host 0.3 cores of 2 CPUs"}}, nil},
		{"every request refused: the verdict names it from the first second", deadTarget(sample.ConnRefused), KindAllFailed,
			&expect{Critical, [2]int{0, 0}, [2]int{3, 3}, []string{"Every request failed: 61 of 61 connection refused from 0:00 — the target is not reachable"}, nil},
			[]string{"Errors"}},
		{"one request, refused: its count reads in the singular", oneRefused, KindAllFailed,
			&expect{Critical, [2]int{0, 0}, [2]int{0, 0}, []string{"Every request failed: 1 of 1 connection refused from 0:00"},
				[]string{"1 of 1 request failed with conn_refused from 0:00"}},
			[]string{"1 requests"}},
		{"every request cut off at the end", deadTarget(sample.Interrupted), KindAllFailed,
			&expect{Critical, [2]int{0, 0}, [2]int{3, 3}, []string{"61 of 61 cut off by the end of the run from 0:00 — no response came before the run ended"}, nil}, nil},
		{"every answer's body still arriving at the end", endlessBodies, KindAllFailed,
			&expect{Critical, [2]int{0, 0}, [2]int{3, 3}, []string{"61 of 61 cut off by the end of the run from 0:00 — the target answered, but no response ended before the run did"}, nil},
			[]string{"did not answer"}},
		{"a failed check is the fault, ranked above the 6:49 it explains", soldOut, KindCheckFailed,
			&expect{Critical, [2]int{4, 4}, [2]int{11, 11}, []string{`Check failed: "never more coupons than the event has" failed 8 of 12 times from 0:04 on GET /coupons/stats (scenario audit)`},
				[]string{"first failing second: 1 of 1 failed"}}, nil},
		{"endpoints of the same name are told apart by scenario", sameName, KindBimodalLatency,
			&expect{Info, [2]int{0, 0}, [2]int{9, 9}, []string{"Bimodal latency on GET /items/{id} (scenario admin)"}, nil}, nil},
		{"throughput that fell in the hold at the most VUs is no more throughput", lockCollapse, KindMoreVUsSameTPS,
			&expect{Warning, [2]int{1, 1}, [2]int{11, 11}, []string{"More VUs, less throughput: VUs 14 → 40 (2.96×) from 0:01, throughput 47 req/s → 30 req/s"}, nil}, nil},
		{"PgBouncer: clients waiting for a server connection, counted as waiters", pgbouncer, KindPoolExhaustion,
			&expect{Critical, [2]int{10, 10}, [2]int{25, 25}, []string{"DB pool exhausted: 10 of 10 connections in use from 0:10, up to 30 clients waiting for a server connection (pgbouncer, database=shop, role=db, target=pgb, user=app)"}, nil}, nil},
		{"holds compared hold to hold, not through a ramp's second", twoHolds, KindMoreVUsSameTPS,
			&expect{Warning, [2]int{1, 1}, [2]int{34, 34}, []string{"VUs 1,000 → 2,000 (2.0×) from 0:01, throughput 8,000 req/s → 8,000 req/s"}, nil},
			[]string{"8,750"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			f, found := findKind(fs, tc.kind)
			if !found {
				t.Fatalf("no %s finding; got %s", tc.kind, titles(fs))
			}
			checkFinding(t, f, tc.want)
			for _, g := range fs {
				for _, bad := range tc.never {
					text := findingText(g)
					if strings.Contains(text, bad) {
						t.Errorf("%s finding says %q:\n%s", g.Kind, bad, text)
					}
				}
			}
		})
	}
}

func TestNoPoolFindingFromSessionCounts(t *testing.T) {
	if f, ok := findKind(Diagnose(postgresSessions(t)), KindPoolExhaustion); ok {
		t.Errorf("pg_stat_activity_count read as a pool: %s", title(f))
	}
}

func TestAFailedCheckRanksAboveTheErrorsItExplains(t *testing.T) {
	fs := Diagnose(soldOut(t))
	if len(fs) < 2 || fs[0].Kind != KindCheckFailed || fs[1].Kind != KindErrorsAtLoad {
		t.Fatalf("findings in order: %s; want the content check first, then the errors", titles(fs))
	}
	if !strings.Contains(fs[1].Remedies[0], "expect_status") {
		t.Errorf("4xx errors without a word on expect_status: %v", fs[1].Remedies)
	}
	for _, f := range fs {
		if f.Kind == KindCheckFailed && strings.Contains(title(f), "status in") {
			t.Errorf("a status check that never failed has a finding: %s", title(f))
		}
	}
}

func TestHealthyReadsWholeSecondsOnly(t *testing.T) {
	cases := []struct {
		name      string
		in        func(t *testing.T) Input
		want, not []string
	}{
		{"the generator's CPU of the partial last second", partialEnd, []string{"the generator used at most 0.4 of 2 cores (20%)", "up to 100 req/s in its busiest second (at "}, []string{"1 of 2", "50%"}},
		{"the closed model's last second, with the VUs gone", closedEnd, []string{"throughput reached 200 req/s in its busiest second of a steady load, with 20 VUs"}, []string{"with 0 VUs", "400 req/s"}},
		{"a run where every request failed is never healthy", deadTarget(sample.DNS), nil, []string{"no bottleneck"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			got := healthyText(in, Diagnose(in))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Healthy = %q, lacks %q", got, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("Healthy = %q, says %q", got, n)
				}
			}
		})
	}
}
