package demo

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"
)

// feedCount is the improved feed's post count, kept as posts are written
// instead of counted per read.
type feedCount struct {
	total atomic.Int64
}

// naiveFeed counts every post's comments, then sorts and keeps 20: the work
// grows with the whole data set (case study 3: fine on a small data set,
// 27 TPS on 200,000 rows).
const naiveFeed = `SELECT p.id, p.user_id, p.body, p.created_at, COUNT(c.id)
	FROM demo_posts p LEFT JOIN demo_comments c ON c.post_id = p.id
	GROUP BY p.id, p.user_id, p.body, p.created_at
	ORDER BY p.created_at DESC, p.id DESC LIMIT 20`

// improvedFeed takes the 20 newest posts through the index first, then
// counts only their comments.
const improvedFeed = `SELECT p.id, p.user_id, p.body, p.created_at, (SELECT COUNT(*) FROM demo_comments c WHERE c.post_id = p.id)
	FROM (SELECT id, user_id, body, created_at FROM demo_posts ORDER BY created_at DESC, id DESC LIMIT 20) p
	ORDER BY p.created_at DESC, p.id DESC`

type post struct {
	ID        int64  `json:"id"`
	User      int64  `json:"user"`
	Text      string `json:"text"`
	CreatedAt int64  `json:"created_at"`
	Comments  int64  `json:"comments"`
}

// readFeed returns the 20 newest posts with their comment counts and the
// number of posts.
func (s *shop) readFeed(w http.ResponseWriter, r *http.Request) int {
	v, status, ok := s.variant(w, r)
	if !ok {
		return status
	}
	ctx := r.Context()
	c, err := s.db.conn(ctx)
	if err != nil {
		return s.errorStatus(w, err)
	}
	defer c.Close()
	query, total := naiveFeed, s.feed.total.Load()
	if !v.improved() {
		if total, err = count(ctx, c, "demo_posts"); err != nil {
			return s.errorStatus(w, err)
		}
	} else {
		query = improvedFeed
	}
	rows, err := c.QueryContext(ctx, query)
	if err != nil {
		return s.errorStatus(w, err)
	}
	posts, err := scanPosts(rows)
	if err != nil {
		return s.errorStatus(w, err)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"posts": posts, "total": total})
}

func scanPosts(rows *sql.Rows) ([]post, error) {
	defer rows.Close()
	posts := make([]post, 0, 20)
	for rows.Next() {
		var p post
		if err := rows.Scan(&p.ID, &p.User, &p.Text, &p.CreatedAt, &p.Comments); err != nil {
			return nil, err
		}
		posts = append(posts, p)
	}
	return posts, rows.Err()
}

// writeFeed adds a post: {"text": "...", "user": 7}.
func (s *shop) writeFeed(w http.ResponseWriter, r *http.Request) int {
	if _, status, ok := s.variant(w, r); !ok {
		return status
	}
	var in struct {
		Text string `json:"text"`
		User int64  `json:"user"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Text == "" {
		return writeJSON(w, http.StatusBadRequest, map[string]any{"error": `want a JSON body {"text": "...", "user": 1}`})
	}
	var id int64
	err := s.db.inWriteTx(r.Context(), func(tx *sql.Tx) error {
		return tx.QueryRowContext(r.Context(), `INSERT INTO demo_posts (user_id, body, created_at) VALUES ($1, $2, $3) RETURNING id`,
			in.User, in.Text, time.Now().UnixMilli()).Scan(&id)
	})
	if err != nil {
		return s.errorStatus(w, err)
	}
	total := s.feed.total.Add(1)
	return writeJSON(w, http.StatusCreated, map[string]any{"id": id, "total": total})
}
