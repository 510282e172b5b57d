package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Target is a running demo shop.
type Target struct {
	URL     string  // e.g. http://127.0.0.1:38211
	Options Options // the options in force, defaults filled in
	srv     *http.Server
	shop    *shop
	done    chan error
	stop    context.CancelFunc // ends the background work
	workers sync.WaitGroup
	closed  sync.Once
	err     error
}

// Start opens the shop's database (seeding what is empty), its cache, and
// serves it on o.Addr. ctx bounds only the start-up; Close stops the shop.
func Start(ctx context.Context, o Options) (*Target, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	tr, err := newTracing(ctx, o.OTLPEndpoint, o.ServiceName)
	if err != nil {
		return nil, err
	}
	db, err := openTracedDB(ctx, o, tr)
	if err != nil {
		tr.close()
		return nil, err
	}
	s := &shop{opt: o, db: db, trace: tr, start: time.Now(), coupons: &couponEvent{queue: make(chan *couponRequest, queueCapacity)}}
	for v, name := range variantNames {
		s.echo[v] = []string{name}
	}
	if err := s.prepare(ctx); err != nil {
		db.close()
		tr.close()
		return nil, err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		s.cache.close()
		db.close()
		tr.close()
		return nil, fmt.Errorf("demo: listening on %s: %w", o.Addr, err)
	}
	bg, stop := context.WithCancel(context.Background())
	t := &Target{URL: "http://" + ln.Addr().String(), Options: o, shop: s, done: make(chan error, 1), stop: stop,
		srv: &http.Server{Handler: s.handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}}
	t.workers.Add(1 + o.QueueWorkers)
	go func() { defer t.workers.Done(); s.keepRankFresh(bg) }()
	for range o.QueueWorkers {
		go func() { defer t.workers.Done(); s.drainCoupons(bg) }()
	}
	go func() { t.done <- t.srv.Serve(ln) }()
	return t, nil
}

// prepare creates and seeds the tables, opens the cache, starts the coupon
// event and builds the precomputed ranking once.
func (s *shop) prepare(ctx context.Context) error {
	if err := ensureSchema(ctx, s.db.DB, s.db.dialect); err != nil {
		return err
	}
	if err := seedCatalog(ctx, s.db.DB, s.opt); err != nil {
		return err
	}
	posts, err := count(ctx, s.db, "demo_posts")
	if err != nil {
		return err
	}
	if posts == 0 {
		if err := seedFeed(ctx, s.db.DB, s.opt.Rows, time.Now()); err != nil {
			return err
		}
		posts = int64(s.opt.Rows)
	}
	s.feed.total.Store(posts)
	if s.cache, err = openCache(ctx, s.opt); err != nil {
		return err
	}
	s.cache = s.trace.traceCache(s.cache)
	if err := s.resetEvent(ctx, s.opt.Coupons); err != nil {
		s.cache.close()
		return fmt.Errorf("demo: starting the coupon event: %w", err)
	}
	if err := s.refreshRank(ctx); err != nil {
		s.cache.close()
		return err
	}
	return nil
}

// Wait blocks until ctx ends or the server fails.
func (t *Target) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-t.done:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// Close stops the server, letting requests in flight finish for a moment,
// then the background work, the cache and the database (a temporary
// database is deleted). It is safe to call more than once.
func (t *Target) Close() error {
	t.closed.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err := t.srv.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = t.srv.Close()
		}
		t.stop()
		t.workers.Wait()
		t.err = errors.Join(err, t.shop.cache.close(), t.shop.db.close(), t.shop.trace.close())
	})
	return t.err
}
