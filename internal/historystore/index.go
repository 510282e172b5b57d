package historystore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	// The pure-Go SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"

	"github.com/loadlens/loadlens/internal/history"
)

// IndexFile is the index's name in a results folder.
const IndexFile = "history.db"

// indexVersion is the layout of history.db; an index of another version is
// dropped and rebuilt, as it holds nothing the run directories do not.
const indexVersion = "1"

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
// serialises them, each waiting up to busy_timeout.
func OpenIndex(path string) (*Index, error) {
	params := url.Values{"_pragma": {"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)"}}
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

// init makes the tables, or empties an index of another version.
func (ix *Index) init() error {
	if _, err := ix.db.Exec(indexSchema); err != nil {
		return err
	}
	var v string
	err := ix.db.QueryRow(`SELECT value FROM meta WHERE key = 'version'`).Scan(&v)
	if err == nil && v == indexVersion {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	_, err = ix.db.Exec(`DELETE FROM runs; INSERT OR REPLACE INTO meta VALUES ('version', ?)`, indexVersion)
	return err
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
