package diagnose

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestErrorsFollowCause: the errors finding's remedies follow the cause the
// other findings established over its seconds, from findings as Diagnose
// sorts them: a CPU cause gives CPU remedies and never the pool's, a pool
// cause the pool's; none, or a cause at other seconds or only context,
// leaves the errors finding's own.
func TestErrorsFollowCause(t *testing.T) {
	errs := func(first string) Finding {
		f := Finding{Kind: KindErrorsAtLoad, Severity: Critical, From: 20, To: 30, Remedies: remediesFor(KindErrorsAtLoad)}
		if first != "" {
			f.Remedies = append([]string{first}, f.Remedies...)
		}
		return f
	}
	cpu := func(kind string, sev Severity, from, to int) Finding {
		return Finding{Kind: kind, Severity: sev, From: from, To: to, Remedies: remediesFor(kind),
			Parts: []Segment{{Name: "App", Figure: -1}, {Text: " CPU saturated: ", Figure: -1}, {Figure: 0}}}
	}
	pool := Finding{Kind: KindPoolExhaustion, Severity: Critical, From: 18, To: 30, Remedies: remediesFor(KindPoolExhaustion),
		Parts: []Segment{{Text: "DB pool exhausted: ", Figure: -1}, {Figure: 0}}}
	own := remediesFor(KindErrorsAtLoad)
	const kind4xx = mostFailuresLead + "4xx answers: list them in expect_status"
	for _, tc := range []struct {
		name   string
		others []Finding
		first  string   // a remedy on the failures' kind, which stays first
		want   []string // the remedies, in order
	}{
		{"CPU saturated over the errors' seconds", []Finding{cpu(KindCPUSaturation, Critical, 15, 28)}, "", []string{
			"the errors came while App was short of CPU (the cpu-saturation finding): apply that finding's remedies, then re-run",
			remediesFor(KindCPUSaturation)[0]}},
		{"throttled by a quota, a scrape before the errors", []Finding{cpu(KindCPUThrottled, Critical, 10, 15)}, kind4xx, []string{kind4xx,
			"the errors came while App was held back by its CPU limit (the cpu-throttled finding): apply that finding's remedies, then re-run",
			remediesFor(KindCPUThrottled)[0]}},
		{"other processes took the CPU", []Finding{cpu(KindTargetHostBusy, Warning, 21, 30)}, "", []string{
			"the errors came while App was short of CPU, which other processes took (the target-host-busy finding): apply that finding's remedies, then re-run",
			remediesFor(KindTargetHostBusy)[0]}},
		{"the pool exhausted", []Finding{pool}, "", []string{
			"the errors came while the DB pool was exhausted (the pool-exhaustion finding): apply that finding's remedies, then re-run",
			remediesFor(KindPoolExhaustion)[0]}},
		{"CPU and pool, in the findings' order", []Finding{cpu(KindCPUSaturation, Critical, 15, 28), pool}, "", []string{
			"the errors came while App was short of CPU (the cpu-saturation finding): apply that finding's remedies, then re-run",
			"the errors came while the DB pool was exhausted (the pool-exhaustion finding): apply that finding's remedies, then re-run",
			remediesFor(KindCPUSaturation)[0], remediesFor(KindPoolExhaustion)[0]}},
		{"throttled and saturated: one CPU cause", []Finding{cpu(KindCPUThrottled, Critical, 12, 30), cpu(KindCPUSaturation, Critical, 16, 30)}, "", []string{
			"the errors came while App was held back by its CPU limit (the cpu-throttled finding): apply that finding's remedies, then re-run",
			remediesFor(KindCPUThrottled)[0]}},
		{"no cause: the errors' own remedies", nil, "", own},
		{"CPU busy as context only (info)", []Finding{cpu(KindCPUSaturation, Info, 15, 28)}, "", own},
		{"CPU saturated after the errors", []Finding{cpu(KindCPUSaturation, Critical, 31, 40)}, "", own},
		{"CPU saturated long before the errors", []Finding{cpu(KindCPUSaturation, Critical, 2, 14)}, "", own},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := append([]Finding{errs(tc.first)}, tc.others...)
			errorsFollowCause(fs)
			got := fs[0].Remedies
			want := tc.want
			if tc.first != "" && slices.Equal(tc.want, own) {
				want = append([]string{tc.first}, own...)
			}
			if !slices.Equal(got, want) {
				t.Errorf("remedies:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
			noPool := !slices.ContainsFunc(tc.others, func(f Finding) bool { return f.Kind == KindPoolExhaustion })
			if noPool && !slices.Equal(want, own) {
				for _, r := range got {
					if slices.Contains(remediesFor(KindPoolExhaustion), r) || strings.Contains(r, "pool, thread or connection limit") {
						t.Errorf("a CPU cause offers a pool remedy: %q", r)
					}
				}
			}
		})
	}
}

// TestQuotaStarvedErrorsOfferNoPool: a target throttled by its cgroup
// quota that answers 5xx from 0:12 gets an errors finding pointing at the
// CPU finding, with no pool remedy beside it (it offered "a pool, thread
// or connection limit" and "the slow query or lock").
func TestQuotaStarvedErrorsOfferNoPool(t *testing.T) {
	in := quotaRun(0.5, 0.5, 0.9)(t)
	secs := steady(40, 100, 3, 30*time.Millisecond)
	for i := 10; i < len(secs); i++ {
		secs[i].reqs[0].dur = even(90*time.Millisecond, 0.5)
		secs[i].reqs[0].fail, secs[i].reqs[0].kind = 12, sample.HTTP5xx
	}
	in.Run = build(t, layout(modelArrivalRate, "GET /apps/first-page"), secs)
	fs := Diagnose(in)
	e := ofKind(fs, KindErrorsAtLoad)
	if e == nil || ofKind(fs, KindCPUThrottled) == nil {
		t.Fatalf("want errors-at-load beside cpu-throttled; findings:\n%s", allText(fs))
	}
	text := strings.Join(e.Remedies, "\n")
	if !strings.Contains(text, "short of CPU (the cpu-saturation finding)") && !strings.Contains(text, "held back by its CPU limit (the cpu-throttled finding)") {
		t.Errorf("the errors' remedies do not name the CPU finding:\n%s", text)
	}
	for _, w := range []string{"pool", "slow query"} {
		if strings.Contains(text, w) {
			t.Errorf("the errors' remedies of a CPU-starved target mention %q:\n%s", w, text)
		}
	}
}
