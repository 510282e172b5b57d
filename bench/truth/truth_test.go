package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testLog sends the harness's progress lines to the test's log.
type testLog struct{ t *testing.T }

func (w testLog) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// TestAccuracySubset runs the catalogue's quick subset on real services:
// a demo-shop case and a truthapp case (pool-small) with their healthy
// counterparts under the same load, once each, and asserts the scoring:
// every must rule fired, and the healthy runs stayed silent. A run the
// host was too busy to judge skips the test, saying so; it never passes
// as correct. Under LOADLENS_CI=1 a missing Java, Maven, PostgreSQL, Redis
// or exporter fails the test instead of skipping it.
func TestAccuracySubset(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL, Redis, a JVM and the demo shop for about 3 minutes; -short skips it")
	}
	cfg := Config{Quick: true, Repeat: 1, Out: t.TempDir(), Busy: 0.5, Wait: 30 * time.Second,
		Spring: os.Getenv("LOADLENS_TRUTH_SPRING")} // empty: bench/truth/spring
	missing, err := Prerequisites(cfg)
	if err != nil {
		t.Fatal(err)
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cfg.defaults(root, time.Now())
	if _, err := os.Stat(filepath.Join(cfg.Spring, "build.sh")); err != nil {
		missing = append(missing, filepath.Join(cfg.Spring, "build.sh"))
	}
	if len(missing) > 0 {
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatalf("missing %s, which LOADLENS_CI=1 needs (see .ci/apt-packages)", strings.Join(missing, ", "))
		}
		t.Skipf("missing %s", strings.Join(missing, ", "))
	}
	logOut = testLog{t}
	defer func() { logOut = os.Stderr }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		if rep != nil && rep.Other.Mean >= cfg.Busy {
			t.Skipf("%v, on a host whose other processes used %.2f cores on average: not judged", err, rep.Other.Mean)
		}
		t.Fatal(err)
	}
	var unjudged []string
	why := map[string]string{} // a case's first unjudged run's reason
	for _, r := range rep.Runs {
		if r.Error != "" {
			t.Errorf("%s: the run could not be made: %s", r.Case, r.Error)
		}
		if _, ok := why[r.Case]; !ok && (r.Unjudged != "" || r.NoPremise != "") {
			why[r.Case] = strings.TrimSpace(r.Unjudged + " " + r.NoPremise)
		}
	}
	for _, c := range rep.Cases {
		if c.Judged < c.Runs {
			unjudged = append(unjudged, c.Case+" ("+why[c.Case]+")")
			continue
		}
		if c.MustMet != c.Judged {
			t.Errorf("%s: must %s fired in %d of %d runs; findings: %v", c.Case, c.Must, c.MustMet, c.Judged, fired(rep, c.Case))
		}
		if c.Must == "(none)" && c.Silent != c.Judged {
			t.Errorf("%s (healthy): fired %v", c.Case, fired(rep, c.Case))
		}
	}
	if len(unjudged) > 0 {
		t.Skipf("not judged, so not scored: %s", strings.Join(unjudged, "; "))
	}
}

// fired lists the titles of the firing findings of a case's runs.
func fired(rep *Report, id string) []string {
	var out []string
	for _, r := range rep.Runs {
		if r.Case != id {
			continue
		}
		for _, f := range r.Findings {
			if f.Fires() {
				out = append(out, f.Severity+" "+f.Kind+": "+f.Title)
			}
		}
	}
	return out
}
