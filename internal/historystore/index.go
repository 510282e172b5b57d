package historystore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	// The pure-Go SQLite driver, registered as "sqlite".
	"modernc.org/sqlite"

	"github.com/loadlens/loadlens/internal/history"
)

// IndexFile is the index's name in a results folder.
const IndexFile = "history.db"

// indexVersion is the layout of history.db; an index of another version is
// dropped and rebuilt, as it holds nothing the run directories do not.
const indexVersion = "5" // 2: runs record whether their generator disturbed them; 3: how many thresholds judged them; 4: their generator's lag; 5: headline rates

// Index is results/history.db: each run directory's record and the stamp
// of its run.db when it was read, so that a run changed since is read again.
type Index struct{ db *sql.DB }

// Stamp says which state of a run directory a record was read from: its
// run.db's size and modification time.
type Stamp struct {
	Size    int64
	ModNano int64
}

const indexSchema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
	dir      TEXT PRIMARY KEY, -- the run directory's name in the results folder
	size     INTEGER NOT NULL,
	mod_ns   INTEGER NOT NULL,
	record   TEXT NOT NULL     -- history.Run as JSON
);`

// OpenIndex opens (creating it when missing) the index at path. Two
// processes may write it at once (two runs ending together): SQLite's lock
// serialises them, each waiting up to busy_timeout; the moments SQLite
// answers busy without waiting (a WAL being set up or cleaned up by the
// other) are retried for as long.
func OpenIndex(path string) (*Index, error) {
	deadline := time.Now().Add(busyWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		ix, err := openIndex(path)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return ix, err
		}
		time.Sleep(pause) // waiting out the other process's lock, not synchronising tests
	}
}

// busyWait is how long a writer waits for another to finish with the index.
const busyWait = 10 * time.Second

func openIndex(path string) (*Index, error) {
	// _txlock=immediate: a transaction takes the write lock when it begins,
	// so a check and the write it decides are one step for other processes.
	params := url.Values{
		"_pragma": {fmt.Sprintf("busy_timeout(%d)", busyWait.Milliseconds()), "journal_mode(WAL)", "synchronous(NORMAL)"},
		"_txlock": {"immediate"},
	}
	escaped := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	db, err := sql.Open("sqlite", "file:"+escaped+"?"+params.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	ix := &Index{db: db}
	if err := ix.init(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ix, nil
}

// isBusy says whether SQLite refused for another connection's lock.
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	const busy, locked = 5, 6 // SQLITE_BUSY, SQLITE_LOCKED (primary codes)
	code := se.Code() & 0xff
	return code == busy || code == locked
}

// init makes the tables, or empties an index of another version, in one
// transaction: emptying after another process's check would lose the runs it
// recorded since.
func (ix *Index) init() error {
	tx, err := ix.db.Begin()
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(indexSchema); err != nil {
		return err
	}
	var v string
	err = tx.QueryRow(`SELECT value FROM meta WHERE key = 'version'`).Scan(&v)
	if err == nil && v == indexVersion {
		return tx.Commit()
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM runs; INSERT OR REPLACE INTO meta VALUES ('version', ?)`, indexVersion); err != nil {
		return err
	}
	return tx.Commit()
}

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

// Entry is one run directory's record in the index.
type Entry struct {
	Dir   string // the run directory's name
	Stamp Stamp
	Run   history.Run
}

// Put records run directories' records, in one transaction.
func (ix *Index) Put(ctx context.Context, entries ...Entry) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	for _, e := range entries {
		b, err := json.Marshal(e.Run)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?)`, e.Dir, e.Stamp.Size, e.Stamp.ModNano, string(b)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Delete forgets run directories that are gone.
func (ix *Index) Delete(ctx context.Context, dirs ...string) error {
	for _, d := range dirs {
		if _, err := ix.db.ExecContext(ctx, `DELETE FROM runs WHERE dir = ?`, d); err != nil {
			return err
		}
	}
	return nil
}

// Entries returns every record, by directory name.
func (ix *Index) Entries(ctx context.Context) ([]Entry, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT dir, size, mod_ns, record FROM runs ORDER BY dir`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var rec string
		if err := rows.Scan(&e.Dir, &e.Stamp.Size, &e.Stamp.ModNano, &rec); err != nil {
			return nil, err
		}
		if err := decode(rec, &e.Run); err != nil {
			return nil, fmt.Errorf("the record of %s: %w", e.Dir, err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func decode(rec string, r *history.Run) error {
	if len(rec) > maxRecord {
		return fmt.Errorf("%d bytes, more than %d", len(rec), maxRecord)
	}
	return json.Unmarshal([]byte(rec), r)
}
