package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// TestDecideToolsTrial is the fourth outside trial of compare and
// capacity, through the binary: a compare gate on latency fails a dead
// target instead of calling its refused connections fast; an 8× slower
// server fails 'p(95) +20%' with an interval its runs allow; a capacity
// search of a target answering only 503 says it failed at the first step
// and exits 99 instead of finding "at least 2,560/s".
func TestDecideToolsTrial(t *testing.T) {
	if testing.Short() {
		t.Skip("three 10-second runs and a capacity step")
	}
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		if ms, err := strconv.Atoi(r.URL.Query().Get("ms")); err == nil {
			time.Sleep(time.Duration(ms) * time.Millisecond) // the service time under test
		}
		if st, err := strconv.Atoi(r.URL.Query().Get("status")); err == nil {
			w.WriteHeader(st)
		}
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	// A port nothing listens on: taken, then given back.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/x"
	l.Close()
	dir := t.TempDir()
	// Each run's directory and durations. A runs alone: the gate's strict
	// verdict needs its slowest request. B and the dead target's run go
	// together (10 s of waiting saved): a stall only raises B's slowest,
	// which widens what the interval may span, and B's fastest is the bound
	// the verdict reads; the dead run's refusals are not timed.
	run := func(names, urls []string) ([]string, []durationsMs) {
		var args [][]string
		for i, name := range names {
			args = append(args, []string{"run", urls[i], "--rate", "200", "--duration", "10s", "--quiet", "--no-dashboard", "--results", name})
		}
		var dirs []string
		var ds []durationsMs
		for i, r := range loadlensTogether(t, dir, args...) {
			if r.code != 0 && r.code != 99 {
				t.Fatalf("run %s: exit %d\n%s%s", names[i], r.code, r.stdout, r.stderr)
			}
			d := onlyRunDir(t, filepath.Join(dir, names[i]))
			dirs, ds = append(dirs, d), append(ds, durations(t, d))
		}
		return dirs, ds
	}
	as, ss := run([]string{"a"}, []string{srv.URL + "/x?ms=5"})
	bd, sbd := run([]string{"b", "dead"}, []string{srv.URL + "/x?ms=40", dead})
	a, sa, b, sb, d := as[0], ss[0], bd[0], sbd[0], bd[1]

	t.Run("a dead target fails the latency gates", func(t *testing.T) {
		r := loadlens(t, dir, "compare", a, d, "--fail-on-regression", "p(95) +10%", "--fail-on-regression", "p(50) +10%")
		out := r.stdout + r.stderr
		if r.code != 99 || strings.Count(out, "✗ p(") != 2 || strings.Contains(out, "✓ p(") {
			t.Fatalf("exit %d, want 99 with both gates failed:\n%s", r.code, out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		for _, want := range []string{"every request failed (", "no latency to judge", "is how fast they failed"} {
			if !strings.Contains(flat, want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		}
		columns(t, out)
	})

	t.Run("an 8× slower server fails within its runs' bounds", func(t *testing.T) {
		r := loadlens(t, dir, "compare", a, b, "--format", "json", "--fail-on-regression", "p(95) +20%")
		var rep struct {
			Rows []struct {
				Metrics []struct {
					Metric string `json:"metric"`
					Groups []struct {
						Value float64 `json:"value"`
						CIPct *struct {
							Lo, Hi float64
						} `json:"ci_pct"`
					} `json:"groups"`
				} `json:"metrics"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("compare's JSON: %v\n%s", err, r.stdout)
		}
		var ci *struct{ Lo, Hi float64 }
		for _, m := range rep.Rows[0].Metrics {
			if m.Metric == "p95" {
				ci = m.Groups[1].CIPct
			}
		}
		if ci == nil {
			t.Fatalf("p95 not tested:\n%s", r.stdout)
		}
		// No p95 of B lies below its fastest request, nor of A above its
		// slowest (both whole-run figures, wider than the compared
		// seconds'); 2 % for the resampling grid.
		least := 100 * (sb.min/sa.max/1.02 - 1)
		most := 100 * (sb.max/sa.min*1.02 - 1)
		if ci.Lo < least || ci.Hi > most {
			t.Errorf("p95 interval [%.1f%%, %.1f%%] reaches past what the runs allow [%.1f%%, %.1f%%] (B %.2f–%.2f ms, A %.2f–%.2f ms)",
				ci.Lo, ci.Hi, least, most, sb.min, sb.max, sa.min, sa.max)
		}
		// When every request of A was faster than B's fastest by more than
		// the limit, no resample can bring the change within it. A busy
		// host stalls A's requests too (a 10 ms sleep taking 50 ms), and
		// then the verdict is the host's.
		switch {
		case sa.max*1.2 < sb.min && (r.code != 99 || !strings.Contains(r.stderr, "✗ p(95) +20%")):
			t.Errorf("exit %d, want 99: A's slowest request %.2f ms, B's fastest %.2f ms\n%s", r.code, sa.max, sb.min, r.stderr)
		case sa.max*1.2 >= sb.min:
			t.Logf("the host stalled A's requests up to %.2f ms (B's fastest %.2f ms): exit %d\n%s", sa.max, sb.min, r.code, r.stderr)
		}
		columns(t, r.stderr)
	})

	t.Run("capacity of a target answering only 503", func(t *testing.T) {
		test := filepath.Join(dir, "cap.yaml")
		yaml := fmt.Sprintf("name: cap\nbase_url: %s\ntimeout: 2s\nthresholds:\n  http_reqs: [\"count > 10\"]\n  iterations: [\"rate > 5\"]\n"+
			"scenarios:\n  s:\n    model: arrival-rate\n    rate: 50\n    duration: 5s\n    flow:\n      - get: /x?status=503\n", srv.URL)
		if err := os.WriteFile(test, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		before := got.Load()
		r := loadlens(t, dir, "capacity", test, "--hold", "2s", "--budget", "16s", "--start", "20", "--factor", "2", "--results", "cap")
		out := r.stdout + r.stderr
		if strings.Contains(out, "host too busy") {
			t.Skipf("the host was too busy to judge a step:\n%s", out)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if r.code != 99 || strings.Contains(flat, "at least") || strings.Contains(flat, "R²") {
			t.Errorf("exit %d, want 99 and no sustainable rate or fit:\n%s", r.code, out)
		}
		for _, want := range []string{"none: every request failed at the first step (20 iterations/s)",
			"stopped target failed: every request failed at the first step (20 iterations/s,", "error budget: errors <= 1%"} {
			if !strings.Contains(flat, want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		}
		// The step's count of requests is the server's.
		files, _ := filepath.Glob(filepath.Join(dir, "cap", "*", "capacity.json"))
		if len(files) != 1 {
			t.Fatalf("capacity.json: %v", files)
		}
		var res struct{ Steps []struct{ Requests int64 } }
		if b, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(b, &res) != nil || len(res.Steps) != 1 {
			t.Fatalf("capacity.json: %v, %d steps", err, len(res.Steps))
		}
		if sent, recv := res.Steps[0].Requests, got.Load()-before; sent == 0 || sent != recv {
			t.Errorf("the step says %d requests, the server received %d", sent, recv)
		}
		columns(t, strings.ReplaceAll(out, dir, "."))
	})
}

// durationsMs is a run's whole-run request durations from summary.json, in ms.
type durationsMs struct{ min, max, p95 float64 }

func durations(t *testing.T, runDir string) durationsMs {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Metrics map[string]map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	d := s.Metrics["http_req_duration"]
	return durationsMs{min: d["min"], max: d["max"], p95: d["p(95)"]}
}

// columns fails the test for any line wider than 100 columns.
func columns(t *testing.T, out string) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns: %s", i+1, n, l)
		}
	}
}
