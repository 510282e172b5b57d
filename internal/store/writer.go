package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/sample"
)

// Writer appends a run to a new run.db. Its methods are meant for one
// goroutine: the collector that produces a snapshot per second.
type Writer struct {
	db        *sql.DB
	path      string
	layout    sample.Layout
	seriesIDs map[string]int64 // series key → its id in the series table, once written
	enc       metrics.Encoder  // reused every second: a fresh one allocates ~800 KB
	blob      []byte           // the last snapshot's encoding, its storage reused
	pause     func()           // called between chunks of a write (see SetPause)
}

// rowsPerPause is how many rows a write inserts between two pauses: a row
// costs SQLite ~10 µs of CPU, so a chunk stays well under a millisecond.
const rowsPerPause = 8

// SetPause makes the writer call pause between chunks of its per-second
// writes (rowsPerPause rows, one endpoint's encoding, the commit), so a
// process sharing one P with its VUs (GOMAXPROCS=1) can let them run in
// between instead of holding the P for the whole write. Call it before the
// first write.
func (w *Writer) SetPause(pause func()) { w.pause = pause }

// pauseNow calls the pause set, if any.
func (w *Writer) pauseNow() {
	if w.pause != nil {
		w.pause()
	}
}

// Create makes a new run.db at path holding m; it fails if the file exists.
func Create(path string, m Meta) (*Writer, error) {
	for k := range m.Extra {
		if reserved(k) {
			return nil, fmt.Errorf("create run.db %s: extra meta key %q is reserved for a Meta field", path, k)
		}
	}
	rows, err := metaRows(m)
	if err != nil {
		return nil, fmt.Errorf("create run.db %s: %w", path, err)
	}
	// O_EXCL makes "does not exist yet" and "is ours" one atomic step; an
	// empty file is a valid empty SQLite database.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("create run.db %s: the file already exists; choose another path or remove it", path)
		}
		return nil, fmt.Errorf("create run.db: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("create run.db: %w", err)
	}
	params := url.Values{"_pragma": {"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)"}}
	db, err := sql.Open("sqlite", fileDSN(path, params))
	if err == nil {
		// One connection: writes are serial anyway, and the pragmas and
		// transactions then all apply to the same connection.
		db.SetMaxOpenConns(1)
		err = initialize(db, rows, m)
	}
	if err != nil {
		if db != nil {
			_ = db.Close()
		}
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(path + suffix)
		}
		return nil, fmt.Errorf("create run.db %s: %w", path, err)
	}
	return &Writer{db: db, path: path, layout: m.Layout}, nil
}

// metaRows returns the meta table's rows for m.
func metaRows(m Meta) (map[string]string, error) {
	args, err := json.Marshal(m.Args)
	if err != nil {
		return nil, fmt.Errorf("encode args: %w", err)
	}
	layout, err := json.Marshal(m.Layout)
	if err != nil {
		return nil, fmt.Errorf("encode layout: %w", err)
	}
	rows := map[string]string{
		keySchemaVersion: strconv.Itoa(SchemaVersion),
		keyID:            m.ID,
		keyName:          m.Name,
		keyVersion:       m.Version,
		keyHost:          m.Host,
		keyCPUs:          strconv.Itoa(m.CPUs),
		keyStart:         m.Start.Format(time.RFC3339Nano),
		keyArgs:          string(args),
		keyTestFile:      m.TestFile,
		keyLayout:        string(layout),
	}
	for k, v := range m.Extra {
		rows[k] = v
	}
	return rows, nil
}

// initialize creates the schema and stores the run's meta and test.
func initialize(db *sql.DB, rows map[string]string, m Meta) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // a no-op after Commit
	if _, err := tx.Exec(schema + seriesSchema + traceSchema); err != nil {
		return fmt.Errorf("create tables: %w", err)
	}
	for k, v := range rows {
		if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES (?, ?)`, k, v); err != nil {
			return fmt.Errorf("store meta %s: %w", k, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO test (path, source) VALUES (?, ?)`, m.TestFile, string(m.TestSource)); err != nil {
		return fmt.Errorf("store test: %w", err)
	}
	return tx.Commit()
}

// SetStart records the run's start, which its writer fixes after run.db is
// made (making it may take long enough to spend a start fixed before).
func (w *Writer) SetStart(t time.Time) error {
	if _, err := w.db.Exec(`UPDATE meta SET value = ? WHERE key = ?`, t.Format(time.RFC3339Nano), keyStart); err != nil {
		return fmt.Errorf("run.db %s: start: %w", w.path, err)
	}
	return nil
}

// WriteSecond stores one second, durably enough that a crash loses at most
// the second in flight.
func (w *Writer) WriteSecond(s *metrics.Snapshot) error {
	if err := s.CheckLayout(w.layout); err != nil {
		return fmt.Errorf("run.db %s: %w", w.path, err)
	}
	blob, err := w.enc.AppendPausing(w.blob[:0], s, w.pauseNow)
	if err != nil {
		return fmt.Errorf("run.db %s: snapshot of second %d: %w", w.path, s.Second, err)
	}
	w.blob = blob
	w.pauseNow()
	if err := w.writeSecond(s, blob); err != nil {
		return fmt.Errorf("run.db %s: write second %d: %w", w.path, s.Second, err)
	}
	return nil
}

func (w *Writer) writeSecond(s *metrics.Snapshot, blob []byte) error {
	tx, err := w.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`INSERT INTO seconds (sec, snapshot) VALUES (?, ?)`, s.Second, blob); err != nil {
		return err
	}
	w.pauseNow()
	stmt, err := tx.Prepare(`INSERT INTO endpoint_seconds (sec, endpoint, scenario, endpoint_name, requests, failed, truncated,
		redirects, bytes_sent, bytes_received, p50_ms, p95_ms, p99_ms, max_ms, started_before_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer func() { _ = stmt.Close() }()
	rows := 1 // the seconds row
	for i, e := range s.Endpoints {
		if e.Requests == 0 {
			continue // idle endpoints get no row
		}
		if rows%rowsPerPause == 0 {
			w.pauseNow()
		}
		rows++
		info := w.layout.Endpoints[i]
		var failed int64
		for _, f := range e.Failures {
			failed += f
		}
		if _, err := stmt.Exec(s.Second, i, scenarioName(w.layout, info.Scenario), info.Name, e.Requests, failed, e.Truncated,
			e.Redirects, e.Sent, e.Received, ms(e.Duration.Quantile(50)), ms(e.Duration.Quantile(95)), ms(e.Duration.Quantile(99)),
			ms(e.Duration.Max()), ms(e.StartedBefore)); err != nil {
			return fmt.Errorf("endpoint %d: %w", i, err)
		}
	}
	w.pauseNow()
	return tx.Commit()
}

// Finish records how the run ended and its threshold results.
func (w *Writer) Finish(f Finish) error {
	if err := w.finish(f); err != nil {
		return fmt.Errorf("run.db %s: finish: %w", w.path, err)
	}
	return nil
}

func (w *Writer) finish(f Finish) error {
	tx, err := w.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM finish`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return errors.New("the run is already finished")
	}
	for _, r := range f.Thresholds {
		if _, err := tx.Exec(`INSERT INTO thresholds (key, expr, observed, has_data, pass, aborted, reason) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			r.Key, r.Expr, r.Observed, r.HasData, r.Pass, r.Aborted, r.Reason); err != nil {
			return fmt.Errorf("threshold %s: %w", r.Key, err)
		}
	}
	notices, err := json.Marshal(append([]string{}, f.Notices...)) // [] rather than null: kept, and none
	if err != nil {
		return fmt.Errorf("notices: %w", err)
	}
	if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES (?, ?)`, keyNotices, string(notices)); err != nil {
		return fmt.Errorf("notices: %w", err)
	}
	for k, v := range f.Meta {
		if reserved(k) {
			return fmt.Errorf("meta key %q is reserved", k)
		}
		if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES (?, ?)`, k, v); err != nil {
			return fmt.Errorf("meta %s: %w", k, err)
		}
	}
	if _, err := tx.Exec(`INSERT INTO finish (end_time, status, elapsed_ns, exit_code) VALUES (?, ?, ?, ?)`,
		f.End.Format(time.RFC3339Nano), f.Status, int64(f.Elapsed), f.ExitCode); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the file; a run closed without Finish reads as unfinished.
func (w *Writer) Close() error {
	if err := w.db.Close(); err != nil {
		return fmt.Errorf("run.db %s: close: %w", w.path, err)
	}
	return nil
}

func scenarioName(l sample.Layout, i int32) string {
	if i < 0 || int(i) >= len(l.Scenarios) {
		return ""
	}
	return l.Scenarios[i].Name
}

// ms converts a duration to the float milliseconds of the plain columns.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
