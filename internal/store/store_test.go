package store

import (
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

func testMeta() Meta {
	return Meta{
		ID: "01HXYZ", Name: "smoke", Version: "v0.1.0", Host: "box", CPUs: 8,
		Start:      time.Date(2026, 11, 22, 10, 30, 0, 123456789, time.UTC),
		Args:       []string{"run", "--vus", "10", "test.yaml"},
		TestFile:   "tests/smoke.yaml",
		TestSource: []byte("scenarios:\n  browse: {}\n"),
		Layout: sample.Layout{
			Scenarios: []sample.ScenarioInfo{{Name: "browse", Model: "vus"}},
			Endpoints: []sample.EndpointInfo{{Scenario: 0, Name: "GET /", Method: "GET"}, {Scenario: 0, Name: "GET /x", Method: "GET"}},
			Checks:    []sample.CheckInfo{{Scenario: 0, Endpoint: 0, Name: "ok"}},
		},
		Extra: map[string]string{"git_commit": "abc123"},
	}
}

// snapshots records n seconds in which endpoint 0 serves sec+1 requests of
// (sec+1) ms, the first with a truncated body, and endpoint 1 none.
func snapshots(layout sample.Layout, n int) []*metrics.Snapshot {
	rec := metrics.NewRecorder(layout, 2)
	var out []*metrics.Snapshot
	for sec := range n {
		sink := rec.Sink(sec)
		for i := range sec + 1 {
			sink.Request(&sample.Request{Endpoint: 0, End: time.Duration(sec) * time.Second,
				Duration: time.Duration(sec+1) * time.Millisecond, Sent: 10, Received: 100, Status: 200, Truncated: i == 0})
		}
		sink.Check(0, time.Duration(sec)*time.Second, true)
		s := rec.Collect(sec)
		s.SetGauges([]sample.Gauge{{Active: 5, Allocated: 5}})
		out = append(out, s)
	}
	return out
}

// create makes a run.db in a temporary directory with n seconds written.
func create(t *testing.T, n int) (*Writer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.db")
	w, err := Create(path, testMeta())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snapshots(testMeta().Layout, n) {
		if err := w.WriteSecond(s); err != nil {
			t.Fatal(err)
		}
	}
	return w, path
}

func open(t *testing.T, path string) *Reader {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

func TestRoundTrip(t *testing.T) {
	w, path := create(t, 5)
	fin := Finish{
		End: time.Date(2026, 11, 22, 10, 30, 5, 0, time.UTC), Status: "completed", Elapsed: 5*time.Second + 300*time.Millisecond,
		ExitCode: 0, Thresholds: []threshold.Result{
			{Key: "http_req_duration", Expr: "p(95) < 800ms", Observed: 4.9, HasData: true, Pass: true},
			{Key: "http_req_failed", Expr: "rate < 0.01", HasData: false, Pass: true, Aborted: false},
			{Key: "http_req_waiting", Expr: "p(99) < 1s", Observed: 30000, HasData: true, Pass: false, Reason: "no completed request (12 sent)"},
		},
		Notices: []string{"threshold http_req_failed failed at 0:02 with abort_on_fail", "the generator held its pool at 40 VUs"},
	}
	if err := w.Finish(fin); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(fin); err == nil {
		t.Error("a second Finish succeeded")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	r := open(t, path)
	if got := r.Meta(); !reflect.DeepEqual(got, testMeta()) {
		t.Errorf("meta:\n got %+v\nwant %+v", got, testMeta())
	}
	gotFin, ok := r.Finish()
	fin.NoticesKept = true // the reader says the file keeps them
	if !ok || !reflect.DeepEqual(gotFin, fin) {
		t.Errorf("finish = %+v, %v; want %+v, true", gotFin, ok, fin)
	}
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"seconds", len(run.Series), 5},
		{"requests", run.Endpoints[0].Requests, int64(15)},
		{"truncated bodies", run.Endpoints[0].Truncated, int64(5)},
		{"duration samples", run.Endpoints[0].Duration.Count(), int64(15)},
		{"check passes", run.Checks[0].Passes, int64(5)},
		{"vus of the last second", run.Scenarios[0].VUsLast, int64(5)},
		{"elapsed from Finish", run.Elapsed(), fin.Elapsed},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestPlainTablesForTheCLI(t *testing.T) {
	w, path := create(t, 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	rows, err := db.Query(`SELECT sec, endpoint, scenario, endpoint_name, requests, failed, truncated, bytes_sent, p99_ms FROM endpoint_seconds ORDER BY sec`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	n := 0
	for ; rows.Next(); n++ {
		var sec, ep, requests, failed, truncated, sent int64
		var scenario, name string
		var p99 float64
		if err := rows.Scan(&sec, &ep, &scenario, &name, &requests, &failed, &truncated, &sent, &p99); err != nil {
			t.Fatal(err)
		}
		if ep != 0 || scenario != "browse" || name != "GET /" || requests != sec+1 || failed != 0 || truncated != 1 || sent != 10*(sec+1) {
			t.Errorf("row %d: sec %d endpoint %d %q %q requests %d failed %d truncated %d sent %d", n, sec, ep, scenario, name, requests, failed, truncated, sent)
		}
		if want := float64(sec + 1); p99 < want || p99 > want*1.001 {
			t.Errorf("second %d: p99_ms = %v, want %v", sec, p99, want)
		}
	}
	if n != 3 {
		t.Errorf("%d endpoint rows, want 3 (idle endpoints have none)", n)
	}
}

func TestWriterSettings(t *testing.T) {
	w, _ := create(t, 0)
	defer func() { _ = w.Close() }()
	var sync int
	if err := w.db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 1 {
		t.Errorf("synchronous = %d (%v), want 1 (NORMAL)", sync, err)
	}
}

func TestAbandonedWriterKeepsEverySecond(t *testing.T) {
	w, path := create(t, 4)
	t.Cleanup(func() { _ = w.Close() })
	// The writer is neither finished nor closed: a second, read-only
	// connection must still see every committed second.
	r := open(t, path)
	if _, ok := r.Finish(); ok {
		t.Error("an unfinished run reads as finished")
	}
	var secs []int
	if err := r.Snapshots(func(s *metrics.Snapshot) error { secs = append(secs, s.Second); return nil }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(secs, []int{0, 1, 2, 3}) {
		t.Errorf("seconds %v, want 0..3", secs)
	}
	run, err := r.Run()
	if err != nil {
		t.Fatal(err)
	}
	if run.Elapsed() != 4*time.Second {
		t.Errorf("elapsed %v, want 4s (end of the last second)", run.Elapsed())
	}
}

func TestOpenRejects(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		wantErr string
	}{
		{"missing file", func(*testing.T, string) {}, "no such file"},
		{"newer schema", func(t *testing.T, path string) {
			closed(t, path)
			exec1(t, path, `UPDATE meta SET value = '5' WHERE key = 'schema_version'`)
		}, "schema version 5 is newer"},
		{"garbage schema version", func(t *testing.T, path string) {
			closed(t, path)
			exec1(t, path, `UPDATE meta SET value = 'x' WHERE key = 'schema_version'`)
		}, "invalid schema version"},
		{"another SQLite database", func(t *testing.T, path string) {
			exec1(t, path, `CREATE TABLE other (x)`)
		}, "not a loadlens run.db"},
		{"not SQLite", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 100)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not a loadlens run.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.db")
			tt.prepare(t, path)
			r, err := Open(path)
			if err == nil {
				_ = r.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestCorruptSecondIsNamed(t *testing.T) {
	tests := []struct {
		name    string
		update  string
		wantErr string
	}{
		{"garbage blob", `UPDATE seconds SET snapshot = x'00ff' WHERE sec = 2`, "second 2: snapshot"},
		{"blob of another second", `UPDATE seconds SET snapshot = (SELECT snapshot FROM seconds WHERE sec = 1) WHERE sec = 2`, "second 2 holds the snapshot of second 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, path := create(t, 4)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			exec1(t, path, tt.update)
			r := open(t, path)
			seen := 0
			err := r.Snapshots(func(*metrics.Snapshot) error { seen++; return nil })
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got error %v, want one containing %q", err, tt.wantErr)
			}
			if seen != 2 {
				t.Errorf("%d seconds delivered before the corrupt one, want 2", seen)
			}
			if _, err := r.Run(); err == nil {
				t.Error("Run() succeeded over a corrupt second")
			}
		})
	}
}

func TestWriterRejects(t *testing.T) {
	t.Run("existing file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "run.db")
		if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Create(path, testMeta()); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("got error %v, want one saying the file exists", err)
		}
		if b, _ := os.ReadFile(path); string(b) != "keep me" {
			t.Error("Create changed an existing file")
		}
	})
	t.Run("reserved extra key", func(t *testing.T) {
		m := testMeta()
		m.Extra = map[string]string{"layout": "x"}
		path := filepath.Join(t.TempDir(), "run.db")
		if _, err := Create(path, m); err == nil || !strings.Contains(err.Error(), `"layout" is reserved`) {
			t.Errorf("got error %v, want one about the reserved key", err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Error("a failed Create left a file behind")
		}
	})
	t.Run("snapshot of another layout", func(t *testing.T) {
		w, _ := create(t, 0)
		defer func() { _ = w.Close() }()
		if err := w.WriteSecond(metrics.NewSnapshot(0, sample.Layout{})); err == nil {
			t.Error("WriteSecond accepted a snapshot of another layout")
		}
	})
	t.Run("second written twice", func(t *testing.T) {
		w, _ := create(t, 2)
		defer func() { _ = w.Close() }()
		err := w.WriteSecond(metrics.NewSnapshot(1, testMeta().Layout))
		if err == nil || !strings.Contains(err.Error(), "second 1") {
			t.Errorf("got error %v, want one naming second 1", err)
		}
	})
}

func TestPathsNeedingEscapes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a?b#c%d e.db")
	w, err := Create(path, testMeta())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the file was not created under its own name: %v", err)
	}
	if got := open(t, path).Meta().Name; got != "smoke" {
		t.Errorf("name %q, want smoke", got)
	}
}

// closed creates a finished, closed run.db at path.
func closed(t *testing.T, path string) {
	t.Helper()
	w, err := Create(path, testMeta())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// rawDB opens path read-write, as a person with the sqlite3 CLI would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", fileDSN(path, url.Values{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func exec1(t *testing.T, path, stmt string) {
	t.Helper()
	if _, err := rawDB(t, path).Exec(stmt); err != nil {
		t.Fatal(err)
	}
}
