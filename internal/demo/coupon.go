package demo

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The time-deal event of case study 5: one event whose remaining count lives
// in the cache, as it did in Redis there; issued coupons are database rows.
const (
	couponEventID = 1
	remainingKey  = "coupons:remaining"
	eventKey      = "event:1"
	eventName     = "time deal"
)

// couponEvent is the event's in-process state.
type couponEvent struct {
	size   atomic.Int64 // coupons the event has, since the last reset
	serial atomic.Int64 // coupons issued since the last reset, counted here
	lock   sync.Mutex   // naive-lock: the global lock around issuing
	queue  chan *couponRequest
	pool   sync.Pool // *couponRequest, reused so queueing does not allocate
}

// eventInfo is the event as cached.
type eventInfo struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// couponResult is one issue attempt's outcome.
type couponResult struct {
	id      int64
	serial  int64
	soldOut bool
}

// issueCoupon issues one coupon of the event. The variants reproduce case
// study 5's three bugs and their fixes; see docs/demo.md.
func (s *shop) issueCoupon(w http.ResponseWriter, r *http.Request) int {
	v, status, ok := s.variant(w, r)
	if !ok {
		return status
	}
	user := r.URL.Query().Get("user")
	if user == "" {
		user = "anonymous"
	}
	ctx := r.Context()
	var res couponResult
	var err error
	switch v {
	case Improved:
		res, err = s.issueQueued(ctx, user)
	case NaiveLock:
		res, err = s.issueLocked(ctx, user)
	case NaiveRace:
		res, err = s.issueRacy(ctx, user)
	case NaiveTx:
		res, err = s.issueTxFirst(ctx, user, false)
	default:
		res, err = s.issueTxFirst(ctx, user, true)
	}
	switch {
	case err != nil:
		return s.errorStatus(w, err)
	case res.soldOut:
		s.counts.couponsSoldOut.Add(1)
		return writeJSON(w, http.StatusConflict, map[string]any{"error": "sold out", "size": s.coupons.size.Load()})
	}
	s.counts.couponsIssued.Add(1)
	return writeJSON(w, http.StatusCreated, map[string]any{"coupon": res.id, "serial": res.serial, "size": s.coupons.size.Load()})
}

// issueTxFirst is the @Transactional-on-the-outer-method bug: a connection
// is held while the cache is consulted, so a slow cache empties the pool.
// With racy it also decrements the remaining count by read, wait, write.
func (s *shop) issueTxFirst(ctx context.Context, user string, racy bool) (couponResult, error) {
	c, err := s.db.conn(ctx)
	if err != nil {
		return couponResult{}, err
	}
	defer c.Close()
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return couponResult{}, err
	}
	defer tx.Rollback()
	if _, err := s.lookupEvent(ctx, tx); err != nil {
		return couponResult{}, err
	}
	take := s.takeAtomic
	if racy {
		take = s.takeRacy
	}
	granted, err := take(ctx, 1)
	if err != nil || granted == 0 {
		return couponResult{soldOut: err == nil}, err
	}
	s.db.lockWrites()
	id, err := insertCoupon(ctx, tx, user)
	if err == nil {
		err = tx.Commit()
	}
	s.db.unlockWrites()
	return s.issued(ctx, id, err)
}

// issueLocked serialises issuing behind one global lock, like the
// distributed lock around the whole method in case study 5.
func (s *shop) issueLocked(ctx context.Context, user string) (couponResult, error) {
	s.coupons.lock.Lock()
	defer s.coupons.lock.Unlock()
	return s.issueCacheFirst(ctx, user, s.takeAtomic)
}

// issueRacy looks up the cache before taking a connection (fixed) but
// decrements the remaining count by read, wait, write (the over-issue bug).
func (s *shop) issueRacy(ctx context.Context, user string) (couponResult, error) {
	return s.issueCacheFirst(ctx, user, s.takeRacy)
}

// issueCacheFirst consults the cache, takes a coupon, and only then opens
// a short transaction for the insert.
func (s *shop) issueCacheFirst(ctx context.Context, user string, take func(context.Context, int64) (int64, error)) (couponResult, error) {
	if _, err := s.lookupEvent(ctx, nil); err != nil {
		return couponResult{}, err
	}
	granted, err := take(ctx, 1)
	if err != nil || granted == 0 {
		return couponResult{soldOut: err == nil}, err
	}
	var id int64
	err = s.db.inWriteTx(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = insertCoupon(ctx, tx, user)
		return err
	})
	return s.issued(ctx, id, err)
}

// issued finishes an attempt that took a coupon: numbered when the insert
// worked, given back to the count when it did not.
func (s *shop) issued(ctx context.Context, id int64, err error) (couponResult, error) {
	if err != nil {
		s.cache.addCounter(context.WithoutCancel(ctx), remainingKey, 1)
		return couponResult{}, err
	}
	return couponResult{id: id, serial: s.coupons.serial.Add(1)}, nil
}

// slowCache is a round trip to a cache that is slow under load.
func (s *shop) slowCache(ctx context.Context) {
	if s.opt.CacheDelay <= 0 {
		return
	}
	if s.trace != nil {
		_, span := s.trace.cacheSpan(ctx, "round trip", s.cache.(tracedCache).system)
		defer span.End()
	}
	time.Sleep(s.opt.CacheDelay)
}

// lookupEvent reads the event look-aside: the cache, then on a miss the
// database through q (the open transaction) or a short pooled connection.
func (s *shop) lookupEvent(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (eventInfo, error) {
	var ev eventInfo
	s.slowCache(ctx)
	if b, hit, err := s.cache.get(ctx, []byte(eventKey)); err == nil && hit && json.Unmarshal(b, &ev) == nil {
		s.counts.cacheHits[eventCache].Add(1)
		return ev, nil
	}
	s.counts.cacheMisses[eventCache].Add(1)
	if q == nil {
		c, err := s.db.conn(ctx)
		if err != nil {
			return ev, err
		}
		defer c.Close()
		q = c
	}
	err := q.QueryRowContext(ctx, `SELECT id, name, size FROM demo_coupon_events WHERE id = $1`, couponEventID).Scan(&ev.ID, &ev.Name, &ev.Size)
	if errors.Is(err, sql.ErrNoRows) {
		return ev, errors.New("the coupon event does not exist: POST /coupons/reset creates it")
	}
	if err != nil {
		return ev, err
	}
	b, _ := json.Marshal(ev)
	s.slowCache(ctx)
	if err := s.cache.set(ctx, []byte(eventKey), b); err != nil {
		s.opt.Logf("demo: caching the coupon event: %v", err)
	}
	return ev, nil
}

// takeAtomic takes up to n coupons with one atomic decrement, giving back
// what overshot zero: never more than the event has.
func (s *shop) takeAtomic(ctx context.Context, n int64) (int64, error) {
	s.slowCache(ctx)
	left, err := s.cache.addCounter(ctx, remainingKey, -n)
	if err != nil {
		return 0, err
	}
	if left >= 0 {
		return n, nil
	}
	granted := max(0, n+left)
	_, err = s.cache.addCounter(context.WithoutCancel(ctx), remainingKey, n-granted)
	return granted, err
}

// takeRacy takes a coupon by reading the count, then writing it back one
// lower a round trip later: concurrent requests read the same count and
// all succeed, the lost update that over-issues.
func (s *shop) takeRacy(ctx context.Context, _ int64) (int64, error) {
	s.slowCache(ctx)
	left, err := s.cache.counter(ctx, remainingKey)
	if err != nil || left <= 0 {
		return 0, err
	}
	s.slowCache(ctx)
	return 1, s.cache.setCounter(ctx, remainingKey, left-1)
}

// insertCoupon records an issued coupon and returns its id.
func insertCoupon(ctx context.Context, tx *sql.Tx, user string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO demo_coupons (event_id, user_name, issued_at) VALUES ($1, $2, $3) RETURNING id`,
		couponEventID, user, time.Now().UnixMilli()).Scan(&id)
	return id, err
}

// resetCoupons starts the event again with ?count=N coupons (default: the
// shop's Coupons option), forgetting every coupon issued.
func (s *shop) resetCoupons(w http.ResponseWriter, r *http.Request) int {
	n := s.opt.Coupons
	if q := r.URL.Query().Get("count"); q != "" {
		var err error
		if n, err = strconv.ParseInt(q, 10, 64); err != nil || n < 0 {
			return writeJSON(w, http.StatusBadRequest, map[string]any{"error": "count=" + q + ": want a whole number of coupons, 0 or more"})
		}
	}
	if err := s.resetEvent(r.Context(), n); err != nil {
		return s.errorStatus(w, err)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"event": couponEventID, "size": n, "issued": 0})
}

// resetEvent recreates the event with n coupons and none issued.
func (s *shop) resetEvent(ctx context.Context, n int64) error {
	err := s.db.inWriteTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`DELETE FROM demo_coupons WHERE event_id = $1`, []any{couponEventID}},
			{`DELETE FROM demo_coupon_events WHERE id = $1`, []any{couponEventID}},
			{`INSERT INTO demo_coupon_events (id, name, size) VALUES ($1, $2, $3)`, []any{couponEventID, eventName, n}},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Warm the event's cache entry: a miss inside the naive transaction
	// would read before writing, which SQLite may refuse under write load.
	b, _ := json.Marshal(eventInfo{ID: couponEventID, Name: eventName, Size: n})
	if err := s.cache.set(ctx, []byte(eventKey), b); err != nil {
		return err
	}
	if err := s.cache.setCounter(ctx, remainingKey, n); err != nil {
		return err
	}
	s.coupons.size.Store(n)
	s.coupons.serial.Store(0)
	return nil
}

// couponStats tells how many coupons were issued against how many the
// event has; over_issued is what a correctness check should find zero.
func (s *shop) couponStats(w http.ResponseWriter, r *http.Request) int {
	ctx := r.Context()
	c, err := s.db.conn(ctx)
	if err != nil {
		return s.errorStatus(w, err)
	}
	defer c.Close()
	var size, issued int64
	err = c.QueryRowContext(ctx, `SELECT e.size, (SELECT COUNT(*) FROM demo_coupons c WHERE c.event_id = e.id) FROM demo_coupon_events e WHERE e.id = $1`,
		couponEventID).Scan(&size, &issued)
	if err != nil {
		return s.errorStatus(w, err)
	}
	remaining, err := s.cache.counter(ctx, remainingKey)
	if err != nil {
		return s.errorStatus(w, err)
	}
	// A correct decrement keeps issued + remaining <= size at every moment
	// (a coupon in flight is taken but not yet inserted); a lost update
	// leaves remaining too high, so the excess is over-issue even before
	// the event sells out.
	over := max(0, issued+max(0, remaining)-size)
	return writeJSON(w, http.StatusOK, map[string]any{"event": couponEventID, "size": size, "available": size,
		"issued": issued, "remaining": max(0, remaining), "over_issued": over})
}
