package scrape

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// hostile serves an exposition of n gauge series named name, each with a
// label value of vlen bytes, and extra text after them.
func hostile(name string, n, vlen int, extra string) http.HandlerFunc {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# TYPE %s gauge\n", name)
	pad := strings.Repeat("v", vlen)
	for i := range n {
		fmt.Fprintf(&b, "%s{id=\"%s%d\"} %d\n", name, pad, i, i)
	}
	b.WriteString(extra)
	body := b.Bytes()
	return func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }
}

// TestTargetsAddBoundedSeries scrapes targets exposing more series than a
// run keeps, names and labels beyond the bounds, and checks that every
// scrape delivers no more than the bounds allow, the first series in name
// order, and that each target is noted once, with the count it lost.
func TestTargetsAddBoundedSeries(t *testing.T) {
	longName := strings.Repeat("n", MaxNameLen+1)
	manyLabels := "wide{"
	for i := range MaxLabels + 1 {
		manyLabels += fmt.Sprintf("l%d=\"1\",", i)
	}
	manyLabels = strings.TrimSuffix(manyLabels, ",") + "} 1\n"
	tests := []struct {
		name     string
		handlers []http.HandlerFunc
		samples  int
		target   int
		run      int
		want     []int       // series delivered per target, besides up and scrape_duration_seconds
		notes    []*Overflow // each target's one report; nil for none
	}{
		{"a target of a million series keeps its first ones",
			[]http.HandlerFunc{hostile("m", 3000, 0, "")}, 1000, 100, 1000,
			[]int{100}, []*Overflow{{Target: "t0", Exposed: 3000, Read: 1000, TargetFull: 900, PerTarget: 100, PerRun: 1000}}},
		{"the run's bound is shared by its targets",
			[]http.HandlerFunc{hostile("a", 100, 0, ""), hostile("b", 100, 0, "")}, 1000, 1000, 150,
			[]int{-1, -1}, nil}, // which target finds the run full is a race: checked below
		{"label values, names and label counts beyond the bounds",
			[]http.HandlerFunc{hostile("big", 3, MaxLabelValueLen, "# TYPE "+longName+" gauge\n"+longName+" 1\n# TYPE wide gauge\n"+manyLabels+"# TYPE ok gauge\nok 1\n")}, 1000, 1000, 1000,
			[]int{1}, []*Overflow{{Target: "t0", Exposed: 6, Read: 6, Oversized: 5, PerTarget: 1000, PerRun: 1000}}},
		{"a real exposition is kept whole",
			[]http.HandlerFunc{hostile("m", 500, 100, "")}, MaxSamples, MaxTargetSeries, MaxRunSeries,
			[]int{500}, []*Overflow{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var targets []Target
			for i, h := range tt.handlers {
				srv := httptest.NewServer(h)
				defer srv.Close()
				targets = append(targets, Target{Name: fmt.Sprintf("t%d", i), URL: srv.URL, Interval: 10e6})
			}
			rec := newRecorder(func(r *recorder) bool {
				for _, tg := range targets {
					if len(r.scraped[tg.Name]) < 3 {
						return false
					}
				}
				return true
			})
			s, err := New(targets, t0, rec)
			if err != nil {
				t.Fatal(err)
			}
			s.lim.samples, s.lim.perTarget, s.lim.perRun = tt.samples, tt.target, tt.run
			s.now = (&stepClock{}).now
			runScraper(t, s, rec)
			rec.mu.Lock()
			defer rec.mu.Unlock()
			total := 0
			for i, tg := range targets {
				most := 0
				for _, set := range rec.scraped[tg.Name] {
					most = max(most, len(set)-2)
				}
				total += most
				if tt.want[i] >= 0 && most != tt.want[i] {
					t.Errorf("%s: %d series in a scrape, want %d", tg.Name, most, tt.want[i])
				}
				if tt.notes == nil {
					continue
				}
				notes := rec.notes[tg.Name]
				switch want := tt.notes[i]; {
				case want == nil && len(notes) > 0:
					t.Errorf("%s: reported %+v, want nothing", tg.Name, notes)
				case want != nil && (len(notes) != 1 || notes[0] != *want):
					t.Errorf("%s: reported %+v, want once %+v", tg.Name, notes, *want)
				}
			}
			if total > tt.run {
				t.Errorf("the targets delivered %d series, more than the run's bound %d", total, tt.run)
			}
			if tt.run == 150 {
				// scraped at once, both may meet the full run (18 and 32 refused once): the refusals add up
				t0, t1 := rec.notes["t0"], rec.notes["t1"]
				refused, all := 0, append(t0, t1...)
				for _, n := range all {
					refused += n.RunFull + n.TargetFull
				}
				if total != 150 || len(t0) > 1 || len(t1) > 1 || len(all) == 0 || refused != 50 {
					t.Errorf("the targets delivered %d series, reported %+v; want 150, at most one report a target, 50 refused for the run's bound", total, all)
				}
				for _, n := range all {
					if n.TargetFull != 0 {
						t.Errorf("%s: %d refused for the target's bound of 1,000 series, with 100 exposed", n.Target, n.TargetFull)
					}
				}
			}
		})
	}
}

// TestFirstSeriesAreKept checks which series a full target keeps: the
// first in name order, and later only those it kept before.
func TestFirstSeriesAreKept(t *testing.T) {
	tg := testTarget(t, "")
	tg.conv.lim = &bounds{samples: 100, perTarget: 2, perRun: 100}
	for _, tt := range []struct{ text, want string }{
		{"c 3\na 1\nb 2\n", "a b"},
		{"c 3\nzz 4\nb 2\n", "b"}, // a vanished: c and zz are still beyond the bound
	} {
		set, err := tg.convert(context.Background(), []byte(tt.text), t0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range set {
			names = append(names, s.Name)
		}
		if got := strings.Join(names, " "); got != tt.want {
			t.Errorf("%q: kept %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestParseStopsWhenTheRunEnds parses a large exposition with the run
// already over: it must fail rather than parse the whole body.
func TestParseStopsWhenTheRunEnds(t *testing.T) {
	var b bytes.Buffer
	for i := range 20000 {
		fmt.Fprintf(&b, "m{id=\"%d\"} 1\n", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if fams, err := parse(ctx, b.Bytes()); err == nil {
		t.Errorf("parsed %d families after the run ended, want an error", len(fams))
	}
	if fams, err := parse(context.Background(), b.Bytes()); err != nil || len(fams["m"].GetMetric()) != 20000 {
		t.Errorf("a live parse: %v, want 20000 samples", err)
	}
}

// TestCutKeepsWholeSampleLines checks the cut at the bounds' sample lines.
func TestCutKeepsWholeSampleLines(t *testing.T) {
	body := "# HELP a x\n# TYPE a gauge\na 1\n\n  a{x=\"1\"} 2\n# c\nb 3\nc 4"
	tests := []struct {
		max     int
		want    string
		exposed int
	}{
		{1, "# HELP a x\n# TYPE a gauge\na 1\n\n", 4},
		{3, "# HELP a x\n# TYPE a gauge\na 1\n\n  a{x=\"1\"} 2\n# c\nb 3\n", 4},
		{4, body, 4},
		{10, body, 4},
	}
	for _, tt := range tests {
		got, n := cut([]byte(body), tt.max)
		if string(got) != tt.want || n != tt.exposed {
			t.Errorf("cut(%d) = %q, %d; want %q, %d", tt.max, got, n, tt.want, tt.exposed)
		}
	}
}
