package demo

import (
	"context"
	"database/sql"
	"errors"
)

// queueCapacity bounds the coupon queue; a full queue sheds load at once
// with a 503 instead of letting waits grow without limit.
const queueCapacity = 4096

// batchLimit is the most requests one worker issues in one transaction.
const batchLimit = 128

// errQueueFull answers a request that found the coupon queue full.
var errQueueFull = errors.New("the coupon queue is full; retry later")

// couponRequest is one request waiting in the queue for a worker's answer.
type couponRequest struct {
	user  string
	reply chan couponReply
}

type couponReply struct {
	res couponResult
	err error
}

// issueQueued is the improved issue: the event from the cache without a
// connection, then a place in the queue, which workers drain in batches,
// each with one atomic decrement and one short transaction.
func (s *shop) issueQueued(ctx context.Context, user string) (couponResult, error) {
	if _, err := s.lookupEvent(ctx, nil); err != nil {
		return couponResult{}, err
	}
	req, _ := s.coupons.pool.Get().(*couponRequest)
	if req == nil {
		req = &couponRequest{reply: make(chan couponReply, 1)}
	}
	req.user = user
	select {
	case s.coupons.queue <- req:
	default:
		s.coupons.pool.Put(req)
		return couponResult{}, errQueueFull
	}
	select {
	case rep := <-req.reply:
		s.coupons.pool.Put(req)
		return rep.res, rep.err
	case <-ctx.Done():
		// The worker still answers into the buffered channel; the request
		// is not reused, so that late answer is never read by another.
		return couponResult{}, ctx.Err()
	}
}

// drainCoupons is one queue worker: it waits for a request, takes whatever
// else is already queued (up to batchLimit), and issues them together.
func (s *shop) drainCoupons(ctx context.Context) {
	batch := make([]*couponRequest, 0, batchLimit)
	for {
		select {
		case <-ctx.Done():
			return
		case req := <-s.coupons.queue:
			batch = append(batch[:0], req)
		}
	fill:
		for len(batch) < batchLimit {
			select {
			case req := <-s.coupons.queue:
				batch = append(batch, req)
			default:
				break fill
			}
		}
		s.issueBatch(ctx, batch)
	}
}

// issueBatch takes len(batch) coupons at once and inserts those granted in
// one transaction; requests beyond what is left are sold out.
func (s *shop) issueBatch(ctx context.Context, batch []*couponRequest) {
	granted, err := s.takeAtomic(ctx, int64(len(batch)))
	ids := make([]int64, granted)
	if err == nil && granted > 0 {
		err = s.db.inWriteTx(ctx, func(tx *sql.Tx) error {
			for i := range ids {
				var err error
				if ids[i], err = insertCoupon(ctx, tx, batch[i].user); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			s.cache.addCounter(context.WithoutCancel(ctx), remainingKey, granted)
		}
	}
	for i, req := range batch {
		var rep couponReply
		switch {
		case err != nil:
			rep.err = err
		case int64(i) < granted:
			rep.res = couponResult{id: ids[i], serial: s.coupons.serial.Add(1)}
		default:
			rep.res = couponResult{soldOut: true}
		}
		req.reply <- rep
	}
}
