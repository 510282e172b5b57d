package diagnose

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/series"
)

// goGCSetting is what the go preset now keeps of a Go service's collector
// (client_golang 1.20+ exports it by default), which trial A3's runs did
// not record: GOGC, and GOMEMLIMIT with the share of it the runtime held.
type goGCSetting struct {
	gogc  float64
	limit float64 // bytes; 0: none set (math.MaxInt64, as the runtime reports it)
	held  float64 // Sys − HeapReleased as a share of limit
}

// noSetting leaves a run as it was recorded, without the GC's settings.
var noSetting = goGCSetting{}

// with returns in plus the setting's gauges, at every second of each of its
// Go processes' go_gc_duration_seconds_count.
func (g goGCSetting) with(in Input) Input {
	if g.gogc == 0 {
		return in
	}
	limit := g.limit
	if limit == 0 {
		limit = math.MaxInt64
	}
	const released = 64 << 20 // heap returned to the OS: not counted by the limit
	set := append(series.Set(nil), in.Series...)
	for _, gc := range in.Series.Find(goGCCount) {
		gauge := func(name string, v float64) *series.Series {
			s := &series.Series{Name: name, Kind: series.Gauge, Labels: gc.Labels}
			for _, p := range gc.Points {
				s.Points = append(s.Points, series.Point{Sec: p.Sec, Value: v})
			}
			return s
		}
		set = append(set, gauge(goGOGC, g.gogc), gauge(goMemLimit, limit),
			gauge(goSys, g.held*g.limit+released), gauge(goHeapFreed, released))
	}
	in.Series = set
	return in
}

// goGCCase is a recorded run with a GC setting added, and the GC-pressure
// finding it must have (nil: none).
type goGCCase struct {
	name, db string
	set      goGCSetting
	want     *expect
}

// TestTrialA3GoGC diagnoses trial A3's Go services again (testdata/corpus):
// c2-gc-* ran GOGC=10, allocating ~4 MB a request on one core, 13–22
// collections a second with pauses near 0, so the pause rule never named
// its GC. With the setting the go preset now keeps, GC pressure is named
// there, and only where the effective GOGC is low; the healthy runs stay
// silent even at GOGC=10, their CPU far from its limit.
func TestTrialA3GoGC(t *testing.T) {
	gogc10, gogc100 := goGCSetting{gogc: 10}, goGCSetting{gogc: 100}
	atLimit, halfLimit := goGCSetting{gogc: 100, limit: 512 << 20, held: 0.95}, goGCSetting{gogc: 100, limit: 512 << 20, held: 0.5}
	named := func(from, to [2]int, title ...string) *expect {
		return &expect{Warning, from, to, title, []string{"a second (median)", "stop-the-world pauses: "}}
	}
	cases := []goGCCase{
		{"closed, GOGC=10: named, with its GOGC and 10× the default's work", "trialA3-c2-gc-closed", gogc10,
			named([2]int{10, 12}, [2]int{25, 30}, "GC pressure: App's Go runtime collected", "times a second at GOGC 10 while its CPU was at its limit",
				"of 1 core, process_cpu_seconds_total, role=app, target=app)")},
		{"closed-b, GOGC=10: named", "trialA3-c2-gc-closed-b", gogc10, named([2]int{0, 30}, [2]int{0, 30}, "at GOGC 10")},
		{"open, GOGC=10: named", "trialA3-c2-gc-open", gogc10, named([2]int{0, 30}, [2]int{0, 30}, "at GOGC 10")},
		{"closed, the default GOGC at 16 collections a second: no pressure", "trialA3-c2-gc-closed", gogc100, nil},
		{"closed as recorded, without the setting: nothing tells a low GOGC", "trialA3-c2-gc-closed", noSetting, nil},
		{"closed, GOGC 100 but the heap at 95% of GOMEMLIMIT: named by the limit", "trialA3-c2-gc-closed", atLimit,
			named([2]int{10, 12}, [2]int{25, 30}, "at 95% of its memory limit (GOMEMLIMIT)")},
		{"closed, GOGC 100 at half its GOMEMLIMIT: no pressure", "trialA3-c2-gc-closed", halfLimit, nil},
	}
	for _, healthy := range []string{"c6-open30", "c6-open30-b", "c6-open70", "c6-open70-b", "c6-closed30", "c6-closed30-b",
		"c6-closed70", "c6-closed70-b", "c1-40pct", "c4-redis-nohog"} {
		cases = append(cases, goGCCase{healthy + " as it ran (GOGC 100): silent", "trialA3-" + healthy, gogc100, nil},
			goGCCase{healthy + " even at GOGC 10: its CPU far from its limit", "trialA3-" + healthy, gogc10, nil})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", tc.db+".db"))
			fs := Diagnose(tc.set.with(in))
			f, found := expectKind(t, fs, KindGCPressure, tc.want)
			if !found {
				return
			}
			rem := strings.Join(f.Remedies, "\n")
			for _, want := range []string{"GOMEMLIMIT", "pprof -sample_index=alloc_space"} {
				if !strings.Contains(rem, want) {
					t.Errorf("remedies do not say %q:\n%s", want, rem)
				}
			}
		})
	}
}

// TestCPURemediesNameSQLOnlyWithDB: the CPU finding's remedies cite a
// heavy SQL join, a materialized view and read replicas only where the run
// points at a DB (trial A3's c2-gc-open, a Go service with no DB, was told
// of "a heavy join with GROUP BY").
func TestCPURemediesNameSQLOnlyWithDB(t *testing.T) {
	sql := []string{"query", "join", "materialized view", "read replicas"}
	appAtLimit := func(extra ...*series.Series) func(t *testing.T) Input {
		set := series.Set{mk("process_cpu_seconds_total", series.Rate, stepUp(0.97, 10), "cpu_limit", "1", "role", "app")}
		return slowFrom(append(set, extra...), 10)
	}
	cases := []struct {
		name    string
		in      func(t *testing.T) Input
		has     []string // substrings of the remedies
		hasNone []string
	}{
		{"trial A3 c2-gc-open: a Go service and its host, no DB", func(t *testing.T) Input {
			in, _ := diagnoseRunDB(t, filepath.Join("testdata", "corpus", "trialA3-c2-gc-open.db"))
			return in
		}, []string{"profile the busiest code"}, sql},
		{"an app at its core, nothing else scraped", appAtLimit(), []string{"profile the busiest code"}, sql},
		{"an app at its core beside its DB pool", appAtLimit(mk("hikaricp_connections_active", series.Gauge, pts(0, 1, repeat(2, 40)...), "role", "app")),
			[]string{"a heavy join with GROUP BY", "materialized view"}, nil},
		{"the DB's host (role=db)", slowFrom(nodeCPU(0.46, 0.9, 15), 15), []string{"a heavy join with GROUP BY"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, found := findKind(Diagnose(tc.in(t)), KindCPUSaturation)
			if !found {
				t.Fatal("no cpu-saturation finding")
			}
			rem := strings.Join(f.Remedies, "\n")
			for _, s := range tc.has {
				if !strings.Contains(rem, s) {
					t.Errorf("remedies do not say %q:\n%s", s, rem)
				}
			}
			for _, s := range tc.hasNone {
				if strings.Contains(rem, s) {
					t.Errorf("remedies say %q:\n%s", s, rem)
				}
			}
		})
	}
}

// TestGoGCFiguresRecomputed writes a Go service at its core, collecting 15
// times a second, to a run.db with each effective GOGC and recomputes every
// figure of its GC finding from the file (as TestEveryFigureIsRecomputedFromRunDB).
func TestGoGCFiguresRecomputed(t *testing.T) {
	for name, set := range map[string]goGCSetting{
		"GOGC 10":          {gogc: 10},
		"95% of its limit": {gogc: 100, limit: 1 << 30, held: 0.95},
	} {
		t.Run(name, func(t *testing.T) {
			svc := append(goService(0.97, 1, 10),
				mk(goGCCount, series.Rate, pts(0, 1, repeat(15, 40)...), "role", "app", "target", "app"),
				mk(goGCSum, series.Rate, pts(0, 1, repeat(0.0004, 40)...), "role", "app", "target", "app"))
			path := filepath.Join(t.TempDir(), "run.db")
			writeRunDB(t, path, set.with(slowFrom(svc, 10)(t)))
			_, fs := diagnoseRunDB(t, path)
			f, found := findKind(fs, KindGCPressure)
			if !found {
				t.Fatalf("no gc-pressure finding; got %s", titles(fs))
			}
			raw := readRaw(t, path)
			checkFigures(t, raw, title(f), f.Figures, f.Parts, title(f))
			for _, e := range f.Evidence {
				checkFigures(t, raw, evidenceText(f, e), f.Figures, e.Parts, evidenceText(f, e))
			}
			checkOnset(t, raw, f)
			checkWholeSeconds(t, raw, f.Kind, f.Figures)
		})
	}
}

// TestGoGCQuietAtDefaultGOGC gives every recorded Go service of the corpus
// the default GOGC (no recorded run kept the setting): a default GOGC is
// no GC pressure, whatever its rate of collections or its CPU.
func TestGoGCQuietAtDefaultGOGC(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.db"))
	goRuns := 0
	for _, p := range paths {
		in, _ := diagnoseRunDB(t, p)
		if len(in.Series.Find(goGCCount)) == 0 {
			continue
		}
		goRuns++
		for _, f := range Diagnose(goGCSetting{gogc: 100}.with(in)) {
			if f.Kind == KindGCPressure && strings.Contains(title(f), "Go runtime collected") {
				t.Errorf("%s: %s", filepath.Base(p), title(f))
			}
		}
	}
	if goRuns < 10 {
		t.Errorf("only %d Go services in testdata/corpus", goRuns)
	}
}
