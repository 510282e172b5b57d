package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/series"
)

// quotaRun is a Go service scraped at 5 s with the go preset (its CPU and
// GOMAXPROCS 2) beside what loadlens read each second of its cgroup: a
// quota of quota cores (0: none), its periods and those throttled
// (throttledFrom second 10 on), the cores used. The client slows from
// second 10 when the service is throttled.
func quotaRun(quota, used, throttled float64) func(t *testing.T) Input {
	return func(t *testing.T) Input {
		lb := []string{"role", "app", "target", "app"}
		cores := func(step int) []float64 { // 0.2 cores before second 10, used from it
			var v []float64
			for s := step; s <= 40; s += step {
				v = append(v, map[bool]float64{true: used, false: 0.2}[s >= 10])
			}
			return v
		}
		set := series.Set{
			mk("process_cpu_seconds_total", series.Rate, pts(5, 5, cores(5)...), lb...),
			mk("go_sched_gomaxprocs_threads", series.Gauge, pts(0, 5, repeat(2, 9)...), lb...),
		}
		if quota > 0 {
			thr := make([]float64, 40)
			for i := 9; i < 40; i++ {
				thr[i] = throttled * 10
			}
			set = append(set,
				mk(CgroupQuota, series.Gauge, pts(0, 1, repeat(quota, 41)...), lb...),
				mk(CgroupPeriods, series.Rate, pts(1, 1, repeat(10, 40)...), lb...),
				mk(CgroupThrottled, series.Rate, pts(1, 1, thr...), lb...),
				mk(CgroupThrottledSec, series.Rate, pts(1, 1, repeat(throttled*1.5, 40)...), lb...),
				mk(CgroupUsage, series.Rate, pts(1, 1, cores(1)...), lb...))
		}
		in := slowFrom(set, 10)(t)
		if throttled < cpuThrottled {
			in.Run = build(t, layout(modelArrivalRate, "GET /apps/first-page"), steady(40, 100, 3, 30*time.Millisecond))
		}
		return in
	}
}

// TestCgroupQuotaFindings: a target under a cgroup CPU quota whose
// GOMAXPROCS follows the host (2) reads 0.5 of "2" cores in its own
// metrics; the quota loadlens read names it. A target under no quota, or
// one that stays under its quota, gets no CPU finding.
func TestCgroupQuotaFindings(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   func(t *testing.T) Input
		want map[string][]string // finding kind → substrings of its text; a kind absent must not be found
	}{
		{"half a core, throttled 90 % of periods", quotaRun(0.5, 0.5, 0.9), map[string][]string{
			KindCPUThrottled: {"App CPU throttled 90% of periods at its cgroup quota of 0.5 cores (loadlens_cgroup_cpu_throttled_periods_total, role=app, target=app) from 0:10",
				"it used 0.5 cores (median) of the 0.5 cores its cgroup's quota allows", "held back 1.35 cores' worth of each second",
				"it may run 2 threads at once, more than its quota allows"},
			KindCPUSaturation: {"App CPU saturated: 100% of 0.5 cores"},
		}},
		{"under its quota: 0.1 of 0.5 cores, throttled 2 %", quotaRun(0.5, 0.1, 0.02), map[string][]string{}},
		{"no quota: 0.5 of 2 cores", quotaRun(0, 0.5, 0), map[string][]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Diagnose(tc.in(t))
			for _, kind := range []string{KindCPUThrottled, KindCPUSaturation, KindTargetHostBusy} {
				var found *Finding
				for i := range fs {
					if fs[i].Kind == kind {
						found = &fs[i]
					}
				}
				want, ok := tc.want[kind]
				switch {
				case !ok && found != nil:
					t.Errorf("%s found on a target that was not held back:\n%s", kind, findingText(*found))
				case ok && found == nil:
					t.Errorf("no %s finding; findings:\n%s", kind, allText(fs))
				case ok:
					text := findingText(*found)
					for _, w := range want {
						if !strings.Contains(text, w) {
							t.Errorf("%s lacks %q:\n%s", kind, w, text)
						}
					}
				}
			}
		})
	}
}

// TestCgroupAndCAdvisorAgree: the same throttling read from the cgroup by
// loadlens and scraped as cAdvisor's container_cpu_cfs_* counters gives
// the same verdict: kind, severity, seconds and share.
func TestCgroupAndCAdvisorAgree(t *testing.T) {
	for _, throttled := range []float64{0.9, 0.3, 0.2, 0} {
		own := Diagnose(quotaRun(0.5, 0.5, throttled)(t))
		in := quotaRun(0.5, 0.5, throttled)(t)
		var scraped series.Set
		for _, s := range in.Series {
			switch s.Name {
			case CgroupPeriods, CgroupThrottled:
				c := *s
				c.Name = strings.Replace(s.Name, "loadlens_cgroup_cpu_", "container_cpu_cfs_", 1)
				scraped = append(scraped, &c)
			case "process_cpu_seconds_total", "go_sched_gomaxprocs_threads":
				scraped = append(scraped, s)
			}
		}
		in.Series = scraped
		cad := Diagnose(in)
		a, b := ofKind(own, KindCPUThrottled), ofKind(cad, KindCPUThrottled)
		if (a == nil) != (b == nil) || (throttled >= cpuThrottled) != (a != nil) {
			t.Fatalf("throttled %g: from the cgroup %v, from cAdvisor %v", throttled, a != nil, b != nil)
		}
		if a == nil {
			continue
		}
		if a.Severity != b.Severity || a.From != b.From || a.To != b.To || a.Figures[1].Value != b.Figures[1].Value {
			t.Errorf("throttled %g: the cgroup's %s %d–%d %g, cAdvisor's %s %d–%d %g", throttled,
				a.Severity, a.From, a.To, a.Figures[1].Value, b.Severity, b.From, b.To, b.Figures[1].Value)
		}
	}
}

// ofKind returns the first finding of a kind, nil when none.
func ofKind(fs []Finding, kind string) *Finding {
	for i := range fs {
		if fs[i].Kind == kind {
			return &fs[i]
		}
	}
	return nil
}

// TestHealthyUnscrapedQuotaSaysCPUChecked: a run that scraped nothing but
// whose loopback target's cgroup quota loadlens read, unthrottled, has no
// finding and says its CPU was checked that way, not that it was not.
func TestHealthyUnscrapedQuotaSaysCPUChecked(t *testing.T) {
	lb := []string{"target", "127.0.0.1:8080"}
	in := Input{Run: build(t, layout(modelArrivalRate, "GET /apps/first-page"), steady(40, 100, 3, 30*time.Millisecond)), Series: series.Set{
		mk(CgroupQuota, series.Gauge, pts(0, 1, repeat(0.5, 41)...), lb...),
		mk(CgroupPeriods, series.Rate, pts(1, 1, repeat(10, 40)...), lb...),
		mk(CgroupThrottled, series.Rate, pts(1, 1, repeat(0, 40)...), lb...),
	}}
	fs := Diagnose(in)
	v := Healthy(in, fs)
	if v == nil {
		t.Fatalf("no healthy verdict; findings %v", fs)
	}
	text := Join(v.Parts, v.Figures, figureText)
	if want := "CPU only as its cgroup's quota throttled it (loadlens_cgroup_cpu_periods_total)"; !strings.Contains(text, want) {
		t.Errorf("verdict %q lacks %q", text, want)
	}
}
