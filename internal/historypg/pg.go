// Package historypg keeps a team's run history in PostgreSQL: each run's
// history record (labels, load shape, per-endpoint figures; not its
// per-second data), so that several machines' CI jobs share one history.
// It is the one package of history that speaks PostgreSQL, through pgx,
// so that the driver stays out of everything else.
package historypg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/historystore"
)

// Store is a history store in PostgreSQL.
type Store struct{ conn *pgx.Conn }

var _ historystore.Store = (*Store)(nil)

// schemaLock is the advisory lock key under which the table is made: two
// writers making it at once would otherwise race on CREATE TABLE IF NOT
// EXISTS (a unique violation in pg_type).
const schemaLock = 0x6c6c68697374 // "llhist"

const schema = `
CREATE TABLE IF NOT EXISTS loadlens_history_runs (
	host        text        NOT NULL,
	path        text        NOT NULL,  -- the run directory's absolute path on that host
	id          text        NOT NULL,  -- the run directory's name
	name        text        NOT NULL,  -- the test's name
	start_time  timestamptz NOT NULL,
	shape_id    text        NOT NULL,
	record      jsonb       NOT NULL,  -- the whole history record
	recorded_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (host, path)
);
CREATE INDEX IF NOT EXISTS loadlens_history_runs_by_test ON loadlens_history_runs (name, start_time);`

// Open connects to the PostgreSQL at dsn and makes the history table when
// missing.
func Open(ctx context.Context, dsn string) (*Store, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("history store: %w", err)
	}
	s := &Store{conn: conn}
	if err := s.init(ctx); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("history store: making its table: %w", err)
	}
	return s, nil
}

func (s *Store) init(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(schemaLock)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, schema)
		return err
	})
}

// Put records runs, replacing a run recorded before (same host and ID), in
// one transaction: writers at once each see their runs whole.
func (s *Store) Put(ctx context.Context, runs ...history.Run) error {
	return pgx.BeginFunc(ctx, s.conn, func(tx pgx.Tx) error {
		for _, r := range runs {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO loadlens_history_runs (host, path, id, name, start_time, shape_id, record)
				VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (host, path) DO UPDATE SET id = EXCLUDED.id, name = EXCLUDED.name, start_time = EXCLUDED.start_time,
					shape_id = EXCLUDED.shape_id, record = EXCLUDED.record, recorded_at = now()`,
				r.Host, keyPath(r), r.ID, r.Name, r.Start, r.ShapeID, string(b))
			if err != nil {
				return fmt.Errorf("history store: recording %s: %w", r.ID, err)
			}
		}
		return nil
	})
}

// maxRuns and maxRecord bound what Runs reads: a store shared by many, or
// written by another program, must not make history read without end.
const (
	maxRuns   = 100_000
	maxRecord = 4 << 20
)

// ErrTooMany is returned when the store holds more runs than history reads.
var ErrTooMany = errors.New("history store: more runs than history reads")

// Runs returns every run, oldest first.
func (s *Store) Runs(ctx context.Context) ([]history.Run, error) {
	rows, err := s.conn.Query(ctx, `SELECT host, id, record::text FROM loadlens_history_runs
		WHERE octet_length(record::text) <= $1 ORDER BY start_time, host, path LIMIT $2`, maxRecord, maxRuns+1)
	if err != nil {
		return nil, fmt.Errorf("history store: %w", err)
	}
	defer rows.Close()
	var out []history.Run
	for rows.Next() {
		var host, id, rec string
		if err := rows.Scan(&host, &id, &rec); err != nil {
			return nil, fmt.Errorf("history store: %w", err)
		}
		var r history.Run
		if err := json.Unmarshal([]byte(rec), &r); err != nil {
			return nil, fmt.Errorf("history store: the record of %s/%s: %w", host, id, err)
		}
		if len(out) == maxRuns {
			return nil, fmt.Errorf("%w (%d)", ErrTooMany, maxRuns)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// keyPath is the run's path, or its ID for a record without one.
func keyPath(r history.Run) string {
	if r.Path == "" {
		return r.ID
	}
	return r.Path
}

// Close closes the connection.
func (s *Store) Close() error { return s.conn.Close(context.Background()) }
