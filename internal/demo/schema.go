package demo

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// schema creates the shop's tables when they do not exist. Every table is
// named demo_*, so a PostgreSQL database can hold them beside others.
func schema(d dialect) []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS demo_apps (id BIGINT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, downloads BIGINT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS demo_reviews (id BIGINT PRIMARY KEY, app_id BIGINT NOT NULL, rating INTEGER NOT NULL, body TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS demo_reviews_app ON demo_reviews (app_id)`,
		// The precomputed ranking: the materialised view of case study 1.
		`CREATE TABLE IF NOT EXISTS demo_app_rank (app_id BIGINT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, reviews BIGINT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS demo_app_rank_category ON demo_app_rank (category, rating)`,
		`CREATE INDEX IF NOT EXISTS demo_app_rank_rating ON demo_app_rank (rating)`,
		`CREATE TABLE IF NOT EXISTS demo_products (id BIGINT PRIMARY KEY, name TEXT NOT NULL, price BIGINT NOT NULL, stock BIGINT NOT NULL, description TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS demo_product_reviews (id BIGINT PRIMARY KEY, product_id BIGINT NOT NULL, rating INTEGER NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS demo_product_reviews_product ON demo_product_reviews (product_id)`,
		`CREATE TABLE IF NOT EXISTS demo_posts (id ` + d.autoID + `, user_id BIGINT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS demo_posts_created ON demo_posts (created_at, id)`,
		`CREATE TABLE IF NOT EXISTS demo_comments (id ` + d.autoID + `, post_id BIGINT NOT NULL, body TEXT NOT NULL, created_at BIGINT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS demo_comments_post ON demo_comments (post_id)`,
		`CREATE TABLE IF NOT EXISTS demo_coupon_events (id BIGINT PRIMARY KEY, name TEXT NOT NULL, size BIGINT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS demo_coupons (id ` + d.autoID + `, event_id BIGINT NOT NULL, user_name TEXT NOT NULL, issued_at BIGINT NOT NULL)`,
	}
}

// ensureSchema creates the shop's tables and indexes.
func ensureSchema(ctx context.Context, db *sql.DB, d dialect) error {
	for _, stmt := range schema(d) {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("demo schema: %s: %w", firstWords(stmt, 6), err)
		}
	}
	return nil
}

// count returns the number of rows in a table of the schema.
func count(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, table string) (int64, error) {
	var n int64
	err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("demo: counting %s: %w", table, err)
	}
	return n, nil
}

// firstWords shortens a statement for an error message.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.Join(f, " ")
}
