package live

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/units"
)

func TestLineOutput(t *testing.T) {
	st := func(sec int) Status {
		return Status{Elapsed: time.Duration(sec) * time.Second, Total: 30 * time.Second, RPS: 199, P95: 12300 * time.Microsecond, ErrRate: 0.015, VUs: 5, VUsMax: 100, Dropped: 3, InFlight: 7}
	}
	cases := []struct {
		name      string
		tty       bool
		seconds   int
		wantLines int
		wantANSI  bool
	}{
		{"terminal rewrites in place", true, 12, 0, true},
		{"plain output prints every 5s without control codes", false, 12, 3, false}, // at 0s, 5s, 10s
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sb strings.Builder
			l := NewLine(&sb, c.tty)
			for s := 0; s < c.seconds; s++ {
				l.Update(st(s))
			}
			l.Done()
			out := sb.String()
			if got := strings.Count(out, "\n"); got != c.wantLines {
				t.Errorf("%d lines, want %d:\n%q", got, c.wantLines, out)
			}
			if strings.Contains(out, "\033[") != c.wantANSI {
				t.Errorf("ANSI codes present = %v, want %v", !c.wantANSI, c.wantANSI)
			}
			if !strings.Contains(out, "199 req/s · p95 12.3ms · errors 1.50% · in flight 7 · VUs 5/100 · dropped 3") {
				t.Errorf("figures missing from %q", out)
			}
		})
	}
}

func TestFormatProgress(t *testing.T) {
	cases := []struct {
		name string
		st   Status
		want string
	}{
		{"during the run", Status{Elapsed: 12500 * time.Millisecond, Total: time.Minute}, "[0:12/1:00] 0 req/s · p95 -"},
		{"a stalled target in the graceful stop", Status{Elapsed: 6 * time.Second, Total: 3 * time.Second, InFlight: 60},
			"[0:06/0:03 stopping] 0 req/s · p95 - · errors 0.00% · in flight 60 "},
		{"no planned length", Status{Elapsed: 6 * time.Second}, "[0:06] 0 req/s"},
		{"dropped, said when none", Status{Elapsed: 6 * time.Second, Total: 30 * time.Second, VUs: 3, VUsMax: 3}, "[0:06/0:30] 0 req/s · p95 - · errors 0.00% · in flight 0 · VUs 3/3 · dropped 0"},
		{"a gRPC test's calls", Status{Elapsed: 6 * time.Second, RPS: 49, Unit: units.Calls}, "[0:06] 49 calls/s · p95 -"},
		{"a WebSocket test's sessions", Status{Elapsed: 6 * time.Second, RPS: 49, Unit: units.Sessions}, "[0:06] 49 sessions/s · p95 -"},
		{"an HTTP test's requests", Status{Elapsed: 6 * time.Second, RPS: 49, Unit: units.Requests}, "[0:06] 49 req/s · p95 -"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Format(c.st); !strings.HasPrefix(got, c.want) {
				t.Errorf("Format = %q, want it to start %q", got, c.want)
			}
		})
	}
}

// TestFormatFitsTerminal: a stalled run's line, its figures at their
// widest, fits units.Columns (wider, "\r" would redraw only its last row)
// and still says what was dropped when something was.
func TestFormatFitsTerminal(t *testing.T) {
	for _, c := range []struct {
		st   Status
		want string
	}{
		{Status{Elapsed: 31 * time.Second, Total: 30 * time.Second, RPS: 1295, P95: 2030 * time.Millisecond, ErrRate: 0.5707,
			InFlight: 677, VUs: 677, VUsMax: 2095}, "VUs 677/2,095"},
		{Status{Elapsed: 31 * time.Second, Total: 30 * time.Second, RPS: 1295, P95: 2030 * time.Millisecond, ErrRate: 0.5707,
			InFlight: 677, VUs: 677, VUsMax: 2095, Dropped: 1234}, "· dropped 1,234"},
		// fresh39: the demo's stopping line with drops was 109 columns; the VUs go first.
		{Status{Elapsed: 31 * time.Second, Total: 30 * time.Second, RPS: 1295, P95: 2030 * time.Millisecond, ErrRate: 0.5707,
			InFlight: 1677, VUs: 2095, VUsMax: 2095, Dropped: 12345}, "· in flight 1,677 · dropped 12,345"},
		{Status{Elapsed: 3601 * time.Second, Total: 3600 * time.Second, RPS: 123456, P95: 20300 * time.Millisecond, ErrRate: 0.5707,
			InFlight: 123456, VUs: 123456, VUsMax: 123456, Dropped: 1234567, Unit: units.Sessions}, "errors 57.07% · dropped 1,234,567"},
	} {
		got := Format(c.st)
		if n := utf8.RuneCountInString(got); n > units.Columns || !strings.Contains(got, c.want) {
			t.Errorf("Format = %q (%d columns), want at most %d with %q", got, n, units.Columns, c.want)
		}
	}
}
