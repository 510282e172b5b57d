package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// seq is a recursive CTE counting n from 1 to $1: the portable generate_series,
// so seeding is one INSERT…SELECT per table instead of a loop of inserts.
const seq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < $1) `

// Seed adds rows feed posts (and about as many comments) to the shop's
// database, creating its tables first when needed. It is one transaction of
// generated INSERT…SELECT statements: 200,000 posts take seconds, not minutes.
func Seed(ctx context.Context, db *sql.DB, rows int) error {
	if rows < 0 {
		return fmt.Errorf("demo seed: %d rows; want 0 or more", rows)
	}
	d, err := dialectOf(db)
	if err != nil {
		return err
	}
	if err := ensureSchema(ctx, db, d); err != nil {
		return err
	}
	return seedFeed(ctx, db, rows, time.Now())
}

// SeedTo opens the database named by o (Postgres or SQLitePath) and seeds rows
// feed posts into it, for `loadlens demo seed` before `loadlens demo --serve`.
func SeedTo(ctx context.Context, o Options, rows int) error {
	if o.Postgres == "" && o.SQLitePath == "" {
		return errors.New("demo seed: name a database (a PostgreSQL DSN or an SQLite file); seeding a temporary one would be lost")
	}
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	db, err := openDB(ctx, o)
	if err != nil {
		return err
	}
	defer db.close()
	return Seed(ctx, db.DB, rows)
}

// seedFeed appends rows posts, one a minute up to now, and 0–2 comments each.
func seedFeed(ctx context.Context, db *sql.DB, rows int, now time.Time) error {
	if rows == 0 {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("demo seed: %w", err)
	}
	defer tx.Rollback()
	var last int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM demo_posts`).Scan(&last); err != nil {
		return fmt.Errorf("demo seed: reading the feed: %w", err)
	}
	stmts := []struct {
		what string
		sql  string
		args []any
	}{
		{"posts", seq + `INSERT INTO demo_posts (user_id, body, created_at)
			SELECT 1 + (n * 31) % 100000, 'post ' || n || ': what I did today, with a photo and a few words about it',
				CAST($2 AS BIGINT) - CAST($1 - n AS BIGINT) * 60000 FROM seq`,
			[]any{rows, now.UnixMilli()}},
		{"comments", `INSERT INTO demo_comments (post_id, body, created_at)
			SELECT p.id, 'comment ' || k.k || ' on post ' || p.id, p.created_at + k.k * 1000
			FROM demo_posts p JOIN (SELECT 1 AS k UNION ALL SELECT 2) k ON k.k <= p.id % 3 WHERE p.id > $1`,
			[]any{last}},
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("demo seed: inserting %s: %w", s.what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("demo seed: %w", err)
	}
	return nil
}

// seedCatalog fills the app store and the product catalogue when they are
// empty, deterministically, so every shop ranks the same apps first.
func seedCatalog(ctx context.Context, db *sql.DB, o Options) error {
	groups := []struct {
		table string
		stmts []string
		args  [][]any
	}{
		{"demo_apps", []string{
			seq + `INSERT INTO demo_apps (id, name, category, downloads)
				SELECT n, 'app-' || n, CASE (n - 1) % 5 WHEN 0 THEN 'GAME' WHEN 1 THEN 'EDU' WHEN 2 THEN 'SOCIAL' WHEN 3 THEN 'MUSIC' ELSE 'TOOLS' END,
				(n * 7919) % 1000000 FROM seq`,
			seq + `INSERT INTO demo_reviews (id, app_id, rating, body)
				SELECT n, a, CASE WHEN n % 13 < a % 13 THEN 5 ELSE 1 + ((a % 7) + n) % 4 END, 'review ' || n || ' of app ' || a
				FROM (SELECT n, 1 + (n * 37) % $2 AS a FROM seq) s`,
		}, [][]any{{o.Apps}, {o.Reviews, o.Apps}}},
		{"demo_products", []string{
			seq + `INSERT INTO demo_products (id, name, price, stock, description)
				SELECT n, 'product-' || n, 1000 + (n % 97) * 10, (n * 13) % 500, 'A fine product, number ' || n || ', sturdy and useful.' FROM seq`,
			seq + `INSERT INTO demo_product_reviews (id, product_id, rating) SELECT n, 1 + (n - 1) / 5, 1 + (n * 7) % 5 FROM seq`,
		}, [][]any{{o.Products}, {o.Products * 5}}},
	}
	for _, g := range groups {
		n, err := count(ctx, db, g.table)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if err := execAll(ctx, db, g.stmts, g.args); err != nil {
			return fmt.Errorf("demo seed: %s: %w", g.table, err)
		}
	}
	return nil
}

// execAll runs statements in one transaction.
func execAll(ctx context.Context, db *sql.DB, stmts []string, args [][]any) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i, s := range stmts {
		if _, err := tx.ExecContext(ctx, s, args[i]...); err != nil {
			return err
		}
	}
	return tx.Commit()
}
