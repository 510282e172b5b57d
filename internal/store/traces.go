package store

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/spans"
)

// traceSchema holds the run's trace ids and, with a receiver, where the
// sampled requests' time went. Like seriesSchema it was added without a
// version bump: older builds ignore the tables, and files written before
// them read as having no traces. trace_parts is a trace's time split into
// parts that add up to its duration; trace_seconds is the per-second mean
// of those parts (the database and cache as a whole, HTTP per host), for
// the sqlite3 CLI and the report's stacked chart.
const traceSchema = `
CREATE TABLE IF NOT EXISTS trace_kept (
	endpoint    INTEGER NOT NULL,
	why         TEXT NOT NULL,
	trace_id    TEXT NOT NULL,
	sampled     INTEGER NOT NULL,
	sec         INTEGER NOT NULL,
	duration_ns INTEGER NOT NULL,
	status      INTEGER NOT NULL,
	error       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS trace_parts (
	trace_id    TEXT NOT NULL,
	endpoint    INTEGER NOT NULL,
	sec         INTEGER NOT NULL,
	duration_ns INTEGER NOT NULL,
	server_ns   INTEGER NOT NULL,
	failed      INTEGER NOT NULL,
	part        TEXT NOT NULL,
	name        TEXT NOT NULL,
	span        TEXT NOT NULL,
	ns          INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS trace_statements (
	endpoint INTEGER NOT NULL,
	part     TEXT NOT NULL,
	system   TEXT NOT NULL,
	name     TEXT NOT NULL,
	span     TEXT NOT NULL,
	calls    INTEGER NOT NULL,
	total_ns INTEGER NOT NULL,
	max_ns   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS trace_seconds (
	sec      INTEGER NOT NULL,
	endpoint INTEGER NOT NULL,
	part     TEXT NOT NULL,
	name     TEXT NOT NULL,
	traces   INTEGER NOT NULL,
	mean_ns  INTEGER NOT NULL,
	PRIMARY KEY (sec, endpoint, part, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS trace_stats (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
`

// Traces is what a run kept of its traces.
type Traces struct {
	Slowest, Failed [][]spans.Kept    // per endpoint
	Joined          []spans.Trace     // sampled requests joined with their spans
	Statements      []spans.Statement // per endpoint, most total time first
	Stats           spans.Stats
}

// WriteTraces stores the run's traces in one transaction; it is written
// once, at the end of the run.
func (w *Writer) WriteTraces(t *Traces) error {
	if err := w.writeTraces(t); err != nil {
		return fmt.Errorf("run.db %s: write traces: %w", w.path, err)
	}
	return nil
}

func (w *Writer) writeTraces(t *Traces) error {
	tx, err := w.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	kept := func(why string, per [][]spans.Kept) error {
		for _, ks := range per {
			for _, k := range ks {
				if _, err := tx.Exec(`INSERT INTO trace_kept (endpoint, why, trace_id, sampled, sec, duration_ns, status, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
					k.Endpoint, why, k.Trace.String(), k.Sampled, k.Sec, int64(k.Duration), k.Status, k.Err); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := kept("slowest", t.Slowest); err != nil {
		return err
	}
	if err := kept("failed", t.Failed); err != nil {
		return err
	}
	ins, err := tx.Prepare(`INSERT INTO trace_parts (trace_id, endpoint, sec, duration_ns, server_ns, failed, part, name, span, ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, tr := range t.Joined {
		id := tr.Trace.String()
		for _, p := range tr.Parts {
			if _, err := ins.Exec(id, tr.Endpoint, tr.Sec, int64(tr.Duration), int64(tr.Server), tr.Failed, p.Kind, p.Name, p.Span, int64(p.Time)); err != nil {
				return err
			}
		}
	}
	for _, s := range t.Statements {
		if _, err := tx.Exec(`INSERT INTO trace_statements (endpoint, part, system, name, span, calls, total_ns, max_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			s.Endpoint, s.Kind, s.System, s.Name, s.Span, s.Calls, int64(s.Total), int64(s.Max)); err != nil {
			return err
		}
	}
	for _, b := range spans.Summarize(t.Joined, nil) {
		for _, s := range b.Seconds {
			for _, p := range s.Parts {
				if _, err := tx.Exec(`INSERT INTO trace_seconds (sec, endpoint, part, name, traces, mean_ns) VALUES (?, ?, ?, ?, ?, ?)`,
					s.Sec, b.Endpoint, p.Kind, p.Name, s.Traces, int64(p.Time)); err != nil {
					return err
				}
			}
		}
	}
	st := t.Stats
	for k, v := range map[string]int{"receiver": b2i(st.Receiver), "sampled": st.Sampled, "unjoined": st.Unjoined, "beyond": st.Beyond,
		"spans": st.Spans, "dropped": st.Dropped, "rejected": st.Rejected, "exports": st.Exports, "foreign": st.Foreign, "impossible": st.Impossible} {
		if _, err := tx.Exec(`INSERT OR REPLACE INTO trace_stats (key, value) VALUES (?, ?)`, k, v); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Traces reads the run's traces back; a run.db written before traces were
// recorded, or by a run that kept none, has none (nil).
func (r *Reader) Traces() (*Traces, error) {
	t, err := r.readTraces()
	if err != nil {
		return nil, fmt.Errorf("run.db %s: read traces: %w", r.path, err)
	}
	return t, nil
}

func (r *Reader) readTraces() (*Traces, error) {
	var n int
	if err := r.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'trace_stats'`).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	if err := r.db.QueryRow(`SELECT count(*) FROM trace_stats`).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	eps := len(r.meta.Layout.Endpoints)
	t := &Traces{Slowest: make([][]spans.Kept, eps), Failed: make([][]spans.Kept, eps)}
	if err := r.readKept(t); err != nil {
		return nil, err
	}
	if err := r.readParts(t); err != nil {
		return nil, err
	}
	rows, err := r.db.Query(`SELECT endpoint, part, system, name, span, calls, total_ns, max_ns FROM trace_statements ORDER BY rowid`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var s spans.Statement
		if err := rows.Scan(&s.Endpoint, &s.Kind, &s.System, &s.Name, &s.Span, &s.Calls, &s.Total, &s.Max); err != nil {
			return nil, err
		}
		t.Statements = append(t.Statements, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return t, r.readTraceStats(&t.Stats)
}

func (r *Reader) readKept(t *Traces) error {
	rows, err := r.db.Query(`SELECT endpoint, why, trace_id, sampled, sec, duration_ns, status, error FROM trace_kept ORDER BY rowid`)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var k spans.Kept
		var why, id string
		if err := rows.Scan(&k.Endpoint, &why, &id, &k.Sampled, &k.Sec, &k.Duration, &k.Status, &k.Err); err != nil {
			return err
		}
		if k.Trace, err = traceID(id); err != nil {
			return err
		}
		if int(k.Endpoint) >= len(t.Slowest) || k.Endpoint < 0 {
			return fmt.Errorf("trace %s of endpoint %d, which the layout lacks", id, k.Endpoint)
		}
		if why == "failed" {
			k.Failed = true
			t.Failed[k.Endpoint] = append(t.Failed[k.Endpoint], k)
		} else {
			k.Failed = k.Err != ""
			t.Slowest[k.Endpoint] = append(t.Slowest[k.Endpoint], k)
		}
	}
	return rows.Err()
}

func (r *Reader) readParts(t *Traces) error {
	rows, err := r.db.Query(`SELECT trace_id, endpoint, sec, duration_ns, server_ns, failed, part, name, span, ns FROM trace_parts ORDER BY rowid`)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	last := ""
	for rows.Next() {
		var id string
		var tr spans.Trace
		var p spans.Part
		var dur, server, ns int64
		if err := rows.Scan(&id, &tr.Endpoint, &tr.Sec, &dur, &server, &tr.Failed, &p.Kind, &p.Name, &p.Span, &ns); err != nil {
			return err
		}
		p.Time = time.Duration(ns)
		if id != last || len(t.Joined) == 0 {
			if tr.Trace, err = traceID(id); err != nil {
				return err
			}
			tr.Duration, tr.Server = time.Duration(dur), time.Duration(server)
			t.Joined = append(t.Joined, tr)
			last = id
		}
		cur := &t.Joined[len(t.Joined)-1]
		cur.Parts = append(cur.Parts, p)
	}
	return rows.Err()
}

func (r *Reader) readTraceStats(st *spans.Stats) error {
	rows, err := r.db.Query(`SELECT key, value FROM trace_stats`)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var k string
		var v int
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		switch k {
		case "receiver":
			st.Receiver = v != 0
		case "sampled":
			st.Sampled = v
		case "unjoined":
			st.Unjoined = v
		case "beyond":
			st.Beyond = v
		case "spans":
			st.Spans = v
		case "dropped":
			st.Dropped = v
		case "rejected":
			st.Rejected = v
		case "exports":
			st.Exports = v
		case "foreign":
			st.Foreign = v
		case "impossible":
			st.Impossible = v
		}
	}
	return rows.Err()
}

// traceID parses a stored trace id.
func traceID(s string) (sample.TraceID, error) {
	var id sample.TraceID
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(id) {
		return id, fmt.Errorf("bad trace id %q", s)
	}
	copy(id[:], b)
	return id, nil
}
