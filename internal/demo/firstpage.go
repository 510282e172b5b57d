package demo

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// rankTable tracks the precomputed ranking (case study 1's materialised view).
type rankTable struct {
	refreshedAt atomic.Int64 // Unix milliseconds of the last rebuild
	refreshes   atomic.Uint64
	lastNanos   atomic.Int64 // how long the last rebuild took
}

// rankedApp is one entry of the first page.
type rankedApp struct {
	ID       int64   `json:"id"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Rating   float64 `json:"rating"`
	Reviews  int64   `json:"reviews"`
}

// rankQuery is the heavy query: every app joined with all its reviews and
// grouped, on every request. $1 is a category, or ” for all of them.
const rankQuery = `SELECT a.id, a.name, a.category, COALESCE(CAST(AVG(r.rating) AS DOUBLE PRECISION), 0) AS rating, COUNT(r.id)
	FROM demo_apps a LEFT JOIN demo_reviews r ON r.app_id = a.id
	WHERE ($1 = '' OR a.category = $1)
	GROUP BY a.id, a.name, a.category ORDER BY rating DESC, a.id`

// The improved reads: a few rows of the precomputed table through its index.
const (
	precomputedAll      = `SELECT app_id, name, category, rating, reviews FROM demo_app_rank ORDER BY rating DESC, app_id LIMIT 20`
	precomputedCategory = `SELECT app_id, name, category, rating, reviews FROM demo_app_rank WHERE category = $1 ORDER BY rating DESC, app_id LIMIT 20`
)

// firstPage lists the 20 best-rated apps, of one category or of all.
// Naive: rankQuery per request. Improved: the precomputed table.
func (s *shop) firstPage(w http.ResponseWriter, r *http.Request) int {
	v, status, ok := s.variant(w, r)
	if !ok {
		return status
	}
	cat := strings.ToUpper(r.PathValue("category"))
	if cat != "" && !validCategory(cat) {
		return writeJSON(w, http.StatusNotFound, map[string]any{"error": "unknown category " + cat + "; want one of " + strings.Join(Categories, ", ")})
	}
	c, err := s.db.conn(r.Context())
	if err != nil {
		return s.errorStatus(w, err)
	}
	defer c.Close()
	var rows *sql.Rows
	source := "aggregate"
	switch {
	case !v.improved():
		rows, err = c.QueryContext(r.Context(), rankQuery+" LIMIT 20", cat)
	case cat == "":
		rows, err = c.QueryContext(r.Context(), precomputedAll)
		source = "precomputed"
	default:
		rows, err = c.QueryContext(r.Context(), precomputedCategory, cat)
		source = "precomputed"
	}
	if err != nil {
		return s.errorStatus(w, err)
	}
	apps, err := scanRanked(rows)
	if err != nil {
		return s.errorStatus(w, err)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"category": cat, "apps": apps, "source": source,
		"refreshed_at": time.UnixMilli(s.rank.refreshedAt.Load()).UTC().Format(time.RFC3339)})
}

func validCategory(c string) bool {
	for _, k := range Categories {
		if k == c {
			return true
		}
	}
	return false
}

// scanRanked reads and closes rows of (id, name, category, rating, reviews).
func scanRanked(rows *sql.Rows) ([]rankedApp, error) {
	defer rows.Close()
	apps := make([]rankedApp, 0, 20)
	for rows.Next() {
		var a rankedApp
		if err := rows.Scan(&a.ID, &a.Name, &a.Category, &a.Rating, &a.Reviews); err != nil {
			return nil, err
		}
		apps = append(apps, a)
	}
	return apps, rows.Err()
}

// refreshRank rebuilds the precomputed table: the heavy query once, outside
// any write lock, then a short transaction swapping the rows.
func (s *shop) refreshRank(ctx context.Context) error {
	start := time.Now()
	rows, err := s.db.QueryContext(ctx, rankQuery, "")
	if err != nil {
		return fmt.Errorf("demo: ranking apps: %w", err)
	}
	apps, err := scanRanked(rows)
	if err != nil {
		return fmt.Errorf("demo: ranking apps: %w", err)
	}
	err = s.db.inWriteTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM demo_app_rank`); err != nil {
			return err
		}
		for len(apps) > 0 {
			n := min(len(apps), 100)
			if _, err := tx.ExecContext(ctx, rankInsert(n), rankArgs(apps[:n])...); err != nil {
				return err
			}
			apps = apps[n:]
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("demo: refreshing the precomputed ranking: %w", err)
	}
	s.rank.refreshedAt.Store(time.Now().UnixMilli())
	s.rank.lastNanos.Store(int64(time.Since(start)))
	s.rank.refreshes.Add(1)
	return nil
}

// rankInsert is an INSERT of n rows into demo_app_rank.
func rankInsert(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO demo_app_rank (app_id, name, category, rating, reviews) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		p := i*5 + 1
		fmt.Fprintf(&b, "($%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4)
	}
	return b.String()
}

func rankArgs(apps []rankedApp) []any {
	args := make([]any, 0, len(apps)*5)
	for _, a := range apps {
		args = append(args, a.ID, a.Name, a.Category, a.Rating, a.Reviews)
	}
	return args
}

// keepRankFresh rebuilds the precomputed table every RefreshEvery until ctx ends.
func (s *shop) keepRankFresh(ctx context.Context) {
	t := time.NewTicker(s.opt.RefreshEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.refreshRank(ctx); err != nil && ctx.Err() == nil {
				s.opt.Logf("%v", err)
			}
		}
	}
}
