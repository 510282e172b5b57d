package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"

	"github.com/loadlens/loadlens/internal/series"
)

// seriesSchema holds what the target's Prometheus endpoints reported and
// the generator's own series. It was added to SchemaVersion 1 without a
// bump: older builds ignore the tables, and files written before them read
// as having no series and no scrape errors. series_values is for the
// sqlite3 CLI.
const seriesSchema = `
CREATE TABLE IF NOT EXISTS series (
	id     INTEGER PRIMARY KEY,
	key    TEXT NOT NULL UNIQUE,
	name   TEXT NOT NULL,
	labels TEXT NOT NULL,
	kind   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS series_points (
	series INTEGER NOT NULL REFERENCES series (id),
	sec    INTEGER NOT NULL,
	value  REAL NOT NULL,
	PRIMARY KEY (series, sec)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scrape_errors (
	target        TEXT PRIMARY KEY,
	url           TEXT NOT NULL,
	kind          TEXT NOT NULL,
	first_error   TEXT NOT NULL,
	first_sec     INTEGER NOT NULL,
	last_sec      INTEGER NOT NULL,
	failures      INTEGER NOT NULL,
	recovered_sec INTEGER NOT NULL
);
CREATE VIEW IF NOT EXISTS series_values AS
	SELECT s.key, s.name, s.kind, p.sec, p.value FROM series_points p JOIN series s ON s.id = p.series;
`

// ScrapeError is how scraping one target went wrong during a run: one
// record per target, rewritten as failures and recoveries happen.
type ScrapeError struct {
	Target       string
	URL          string
	Kind         string // what the first error was: refused, timeout, http_status, parse or other
	First        string // the first error's message
	FirstSec     int    // the second of the first failed scrape
	LastSec      int    // the second of the latest failed scrape
	Failures     int    // failed scrapes in all
	RecoveredSec int    // the second of the first good scrape after LastSec; -1 when none came
}

// WriteSeries stores the points of some series in one transaction; a point
// at a second already stored for its series replaces it. It may run while
// another goroutine calls WriteSecond (the one connection serialises them)
// but not concurrently with itself.
func (w *Writer) WriteSeries(ss ...*series.Series) error {
	if err := w.writeSeries(ss); err != nil {
		return fmt.Errorf("run.db %s: write series: %w", w.path, err)
	}
	return nil
}

func (w *Writer) writeSeries(ss []*series.Series) error {
	for _, s := range ss {
		if s.Name == "" {
			return fmt.Errorf("series %s has no name", s.Key())
		}
		for _, p := range s.Points {
			if math.IsNaN(p.Value) {
				return fmt.Errorf("series %s at second %d: NaN cannot be stored", s.Key(), p.Sec)
			}
		}
	}
	tx, err := w.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	stmt, err := tx.Prepare(`INSERT OR REPLACE INTO series_points (series, sec, value) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer func() { _ = stmt.Close() }()
	added := map[string]int64{} // ids created in this transaction, cached only once it commits
	rows := 0
	for _, s := range ss {
		key := s.Key()
		id, ok := w.seriesIDs[key]
		if !ok {
			if id, ok = added[key]; !ok {
				if id, err = insertSeries(tx, key, s); err != nil {
					return fmt.Errorf("series %s: %w", key, err)
				}
				added[key] = id
			}
		}
		for _, p := range s.Points {
			if rows > 0 && rows%rowsPerPause == 0 {
				w.pauseNow()
			}
			rows++
			if _, err := stmt.Exec(id, p.Sec, p.Value); err != nil {
				return fmt.Errorf("series %s at second %d: %w", key, p.Sec, err)
			}
		}
	}
	w.pauseNow()
	if err := tx.Commit(); err != nil {
		return err
	}
	if w.seriesIDs == nil {
		w.seriesIDs = map[string]int64{}
	}
	for k, id := range added {
		w.seriesIDs[k] = id
	}
	return nil
}

// insertSeries returns the id of the series with key, creating its row.
func insertSeries(tx *sql.Tx, key string, s *series.Series) (int64, error) {
	labels := make(map[string]string, len(s.Labels))
	for _, l := range s.Labels {
		labels[l.Name] = l.Value
	}
	text, err := json.Marshal(labels) // map keys come out sorted
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRow(`INSERT INTO series (key, name, labels, kind) VALUES (?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET key = excluded.key RETURNING id`, key, s.Name, string(text), s.Kind.String()).Scan(&id)
	return id, err
}

// WriteScrapeError records, or rewrites, a target's scrape errors.
func (w *Writer) WriteScrapeError(e ScrapeError) error {
	_, err := w.db.Exec(`INSERT OR REPLACE INTO scrape_errors (target, url, kind, first_error, first_sec, last_sec,
		failures, recovered_sec) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Target, e.URL, e.Kind, e.First, e.FirstSec, e.LastSec, e.Failures, e.RecoveredSec)
	if err != nil {
		return fmt.Errorf("run.db %s: write scrape error of %s: %w", w.path, e.Target, err)
	}
	return nil
}

// Series returns every stored series with its points in second order,
// sorted by key; a run.db written before series were recorded has none.
func (r *Reader) Series() (series.Set, error) {
	out, err := r.readSeries()
	if err != nil {
		return nil, fmt.Errorf("run.db %s: read series: %w", r.path, err)
	}
	return out, nil
}

func (r *Reader) readSeries() (series.Set, error) {
	if ok, err := r.hasSeriesTables(); !ok || err != nil {
		return nil, err
	}
	rows, err := r.db.Query(`SELECT s.key, s.name, s.labels, s.kind, p.sec, p.value
		FROM series s JOIN series_points p ON p.series = s.id ORDER BY s.key, p.sec`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out series.Set
	var cur *series.Series
	var curKey string
	for rows.Next() {
		var key, name, labels, kind string
		var p series.Point
		if err := rows.Scan(&key, &name, &labels, &kind, &p.Sec, &p.Value); err != nil {
			return nil, err
		}
		if cur == nil || key != curKey {
			s, err := seriesFromRow(name, labels, kind)
			if err != nil {
				return nil, fmt.Errorf("series %s: %w", key, err)
			}
			cur, curKey = s, key
			out = append(out, cur)
		}
		cur.Points = append(cur.Points, p)
	}
	return out, rows.Err()
}

// seriesFromRow builds a series, without points, from its stored columns.
func seriesFromRow(name, labels, kind string) (*series.Series, error) {
	s := &series.Series{Name: name}
	switch kind {
	case "gauge":
		s.Kind = series.Gauge
	case "rate":
		s.Kind = series.Rate
	default:
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(labels), &m); err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	for k, v := range m {
		s.Labels = append(s.Labels, series.Label{Name: k, Value: v})
	}
	series.SortLabels(s.Labels)
	return s, nil
}

// ScrapeErrors returns each target's scrape errors, by target name; a
// run.db written before they were recorded has none.
func (r *Reader) ScrapeErrors() ([]ScrapeError, error) {
	out, err := r.readScrapeErrors()
	if err != nil {
		return nil, fmt.Errorf("run.db %s: read scrape errors: %w", r.path, err)
	}
	return out, nil
}

func (r *Reader) readScrapeErrors() ([]ScrapeError, error) {
	if ok, err := r.hasSeriesTables(); !ok || err != nil {
		return nil, err
	}
	rows, err := r.db.Query(`SELECT target, url, kind, first_error, first_sec, last_sec, failures, recovered_sec
		FROM scrape_errors ORDER BY target`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var out []ScrapeError
	for rows.Next() {
		var e ScrapeError
		if err := rows.Scan(&e.Target, &e.URL, &e.Kind, &e.First, &e.FirstSec, &e.LastSec, &e.Failures, &e.RecoveredSec); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// hasSeriesTables reports whether the file has the series tables, which
// run.db files written before they existed lack.
func (r *Reader) hasSeriesTables() (bool, error) {
	var n int
	err := r.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('series', 'series_points', 'scrape_errors')`).Scan(&n)
	return n == 3, err
}
