package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/threshold"
)

// Reader reads a run.db, also one that is still being written or whose
// writer was killed. Meta and Finish are read once, by Open.
type Reader struct {
	db       *sql.DB
	path     string
	version  int // the file's schema version
	meta     Meta
	finish   Finish
	finished bool
}

// Open opens the run.db at path read-only.
func Open(path string) (*Reader, error) {
	// SQLite in read-only mode would report a missing or unreadable file
	// only as "unable to open database file".
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open run.db: %w", err)
	}
	_ = f.Close()
	db, err := sql.Open("sqlite", fileDSN(path, readParams(path)))
	if err != nil {
		return nil, fmt.Errorf("open run.db %s: %w", path, err)
	}
	r := &Reader{db: db, path: path}
	if err := r.load(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open run.db %s: %w", path, err)
	}
	return r, nil
}

// load reads and checks the schema version, the meta, test and finish.
func (r *Reader) load() error {
	var v string
	if err := r.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, keySchemaVersion).Scan(&v); err != nil {
		return describeOpenError(err)
	}
	version, err := strconv.Atoi(v)
	switch {
	case err != nil || version < 1:
		return fmt.Errorf("invalid schema version %q", v)
	case version > SchemaVersion:
		return fmt.Errorf("schema version %d is newer than this loadlens reads (%d); use a newer loadlens", version, SchemaVersion)
	}
	r.version = version
	if err := r.loadMeta(); err != nil {
		return err
	}
	return r.loadFinish()
}

func (r *Reader) loadMeta() error {
	rows, err := r.db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	defer func() { _ = rows.Close() }()
	m := &r.meta
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return fmt.Errorf("read meta: %w", err)
		}
		if err := setMeta(m, k, v); err != nil {
			return fmt.Errorf("meta %s: %w", k, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read meta: %w", err)
	}
	var source string
	err = r.db.QueryRow(`SELECT source FROM test`).Scan(&source)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("read test: %w", err)
	default:
		m.TestSource = []byte(source)
	}
	return nil
}

// setMeta stores one meta row into m.
func setMeta(m *Meta, k, v string) error {
	var err error
	switch k {
	case keySchemaVersion:
	case keyID:
		m.ID = v
	case keyName:
		m.Name = v
	case keyVersion:
		m.Version = v
	case keyHost:
		m.Host = v
	case keyCPUs:
		m.CPUs, err = strconv.Atoi(v)
	case keyStart:
		m.Start, err = time.Parse(time.RFC3339Nano, v)
	case keyArgs:
		err = json.Unmarshal([]byte(v), &m.Args)
	case keyTestFile:
		m.TestFile = v
	case keyLayout:
		err = json.Unmarshal([]byte(v), &m.Layout)
	case keyNotices: // read with the finish
	default:
		if m.Extra == nil {
			m.Extra = map[string]string{}
		}
		m.Extra[k] = v
	}
	return err
}

func (r *Reader) loadFinish() error {
	var end string
	var elapsed int64
	err := r.db.QueryRow(`SELECT end_time, status, elapsed_ns, exit_code FROM finish`).Scan(&end, &r.finish.Status, &elapsed, &r.finish.ExitCode)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the run never finished
	}
	if err != nil {
		return fmt.Errorf("read finish: %w", err)
	}
	if r.finish.End, err = time.Parse(time.RFC3339Nano, end); err != nil {
		return fmt.Errorf("finish end time: %w", err)
	}
	r.finish.Elapsed = time.Duration(elapsed)
	reason := `reason`
	if r.version < 2 {
		reason = `''` // version 1 had no reasons
	}
	rows, err := r.db.Query(`SELECT key, expr, observed, has_data, pass, aborted, ` + reason + ` FROM thresholds ORDER BY rowid`)
	if err != nil {
		return fmt.Errorf("read thresholds: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var t threshold.Result
		if err := rows.Scan(&t.Key, &t.Expr, &t.Observed, &t.HasData, &t.Pass, &t.Aborted, &t.Reason); err != nil {
			return fmt.Errorf("read thresholds: %w", err)
		}
		r.finish.Thresholds = append(r.finish.Thresholds, t)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read thresholds: %w", err)
	}
	if err := r.loadNotices(); err != nil {
		return err
	}
	r.finished = true
	return nil
}

// loadNotices reads the run's notices; a file of schema version 2 or
// older has none kept.
func (r *Reader) loadNotices() error {
	var v string
	err := r.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, keyNotices).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("read notices: %w", err)
	}
	if err := json.Unmarshal([]byte(v), &r.finish.Notices); err != nil {
		return fmt.Errorf("meta notices: %w", err)
	}
	r.finish.NoticesKept = true
	return nil
}

// Meta returns the run's metadata.
func (r *Reader) Meta() Meta { return r.meta }

// Finish returns how the run ended, and false for a run that never
// finished (it was killed, or is still running).
func (r *Reader) Finish() (Finish, bool) { return r.finish, r.finished }

// Snapshots calls fn with every stored second in order, stopping at the
// first error, which names the second it is about.
func (r *Reader) Snapshots(fn func(*metrics.Snapshot) error) error {
	rows, err := r.db.Query(`SELECT sec, snapshot FROM seconds ORDER BY sec`)
	if err != nil {
		return fmt.Errorf("run.db %s: read seconds: %w", r.path, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var sec int
		var blob []byte
		if err := rows.Scan(&sec, &blob); err != nil {
			return fmt.Errorf("run.db %s: read seconds: %w", r.path, err)
		}
		s := new(metrics.Snapshot)
		if err := s.UnmarshalBinary(blob); err != nil {
			return fmt.Errorf("run.db %s: second %d: %w", r.path, sec, err)
		}
		if s.Second != sec {
			return fmt.Errorf("run.db %s: second %d holds the snapshot of second %d", r.path, sec, s.Second)
		}
		if err := s.CheckLayout(r.meta.Layout); err != nil {
			return fmt.Errorf("run.db %s: second %d: %w", r.path, sec, err)
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("run.db %s: read seconds: %w", r.path, err)
	}
	return nil
}

// Run returns the whole run model. Its elapsed time is the finished run's,
// or for an unfinished run the end of the last second stored.
func (r *Reader) Run() (*metrics.Run, error) {
	run := metrics.NewRun(r.meta.Layout)
	last := -1
	err := r.Snapshots(func(s *metrics.Snapshot) error {
		run.Add(s)
		last = s.Second
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case r.finished && r.finish.Elapsed > 0:
		run.SetElapsed(r.finish.Elapsed)
	case last >= 0:
		run.SetElapsed(time.Duration(last+1) * time.Second)
	}
	return run, nil
}

// Close closes the file.
func (r *Reader) Close() error {
	if err := r.db.Close(); err != nil {
		return fmt.Errorf("run.db %s: close: %w", r.path, err)
	}
	return nil
}
