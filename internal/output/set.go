package output

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// Defaults of Config.
const (
	DefaultQueue   = 60               // seconds a sink may fall behind before seconds are dropped
	DefaultTimeout = 5 * time.Second  // one write's bound
	DefaultFlush   = 10 * time.Second // how long the end of a run waits for the queues to empty
	maxBatch       = 10               // seconds sent in one write when a sink has fallen behind
)

// Config is what a Set needs.
type Config struct {
	Outputs []plan.Output
	RunID   string // the testid label: tells runs apart in one store
	Layout  sample.Layout
	Start   time.Time           // the run's start: second n ends at Start+n+1 s
	Getenv  func(string) string // nil: os.Getenv
	Warn    func(msg string)    // told once per output, at its first lost second; may be nil
	Queue   int                 // 0: DefaultQueue
	Timeout time.Duration       // 0: DefaultTimeout
	Flush   time.Duration       // 0: DefaultFlush
}

// Set sends every second of a run to its outputs, each through its own
// bounded queue and goroutine: Offer never waits for a store.
type Set struct {
	b       *builder
	sinks   []*queued
	flush   time.Duration
	once    sync.Once
	results []Result
}

// Result says what became of one output's seconds; Offered = Sent +
// QueueFull + Failed exactly.
type Result struct {
	Output    string // KIND=URL, the URL without credentials
	Offered   int64  // seconds handed to the output
	Sent      int64  // seconds the store accepted
	QueueFull int64  // seconds dropped because the store had fallen a whole queue behind
	Failed    int64  // seconds whose write failed, timed out or was cut off at the end
	LastErr   string // why the last failed write failed
}

// Dropped is how many seconds the store did not get.
func (r Result) Dropped() int64 { return r.QueueFull + r.Failed }

// New starts a Set with a goroutine per output; Close stops them. A Set
// with no outputs is valid and does nothing.
func New(cfg Config) (*Set, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Flush <= 0 {
		cfg.Flush = DefaultFlush
	}
	s := &Set{b: newBuilder(cfg.Layout, cfg.Start), flush: cfg.Flush}
	for _, o := range cfg.Outputs {
		q := newQueued(Name(o), cfg)
		sink, err := newSink(o, cfg.RunID, cfg.Getenv, q.warnf)
		if err != nil {
			q.cancel()
			s.Close()
			return nil, fmt.Errorf("output %s: %w", Name(o), err)
		}
		q.sink = sink
		go q.run()
		s.sinks = append(s.sinks, q)
	}
	return s, nil
}

// Check reports what would keep an output from starting (an InfluxDB 2
// output without its token), so that a run can refuse before it begins.
func Check(outs []plan.Output, getenv func(string) string) error {
	for _, o := range outs {
		if o.Kind == plan.OutInfluxDB2 && getenv(InfluxTokenEnv) == "" {
			return fmt.Errorf("output %s needs a token: set $%s", Name(o), InfluxTokenEnv)
		}
	}
	return nil
}

// Offer hands one second to every output without waiting: an output whose
// queue is full loses this second, counted.
func (s *Set) Offer(snap *metrics.Snapshot) {
	if s == nil || len(s.sinks) == 0 {
		return
	}
	f := s.b.frame(snap)
	for _, q := range s.sinks {
		q.offer(f)
	}
}

// Close lets every output send what it holds, for at most the flush time
// in all, then cuts off what is left (counted as failed) and returns what
// became of each output's seconds.
func (s *Set) Close() []Result {
	if s == nil {
		return nil
	}
	s.once.Do(s.close)
	return s.results
}

func (s *Set) close() {
	deadline := time.NewTimer(s.flush)
	defer deadline.Stop()
	for _, q := range s.sinks {
		close(q.q)
	}
	for _, q := range s.sinks {
		select {
		case <-q.done:
		case <-deadline.C:
			for _, q := range s.sinks {
				q.cancel() // every write still running fails at once; what is queued fails unsent
			}
			<-q.done
		}
		q.cancel()
		q.sink.Close()
		s.results = append(s.results, q.result())
	}
}

// queued is one output: its queue, its goroutine and its counts.
type queued struct {
	name    string
	sink    Sink
	q       chan *Frame
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	timeout time.Duration
	warn    func(string)

	offered, full int64 // written by Offer's goroutine only

	mu      sync.Mutex // guards what the goroutine counts
	sent    int64
	failed  int64
	lastErr error
}

// newQueued returns an output's queue; its sink is set, and run started, by New.
func newQueued(name string, cfg Config) *queued {
	ctx, cancel := context.WithCancel(context.Background())
	return &queued{name: name, q: make(chan *Frame, cfg.Queue), ctx: ctx, cancel: cancel,
		done: make(chan struct{}), timeout: cfg.Timeout, warn: cfg.Warn}
}

func (q *queued) offer(f *Frame) {
	q.offered++
	select {
	case q.q <- f:
	default:
		q.full++
		if q.full == 1 {
			q.warnf("second %d dropped: the output is %d seconds behind (its queue is full); the run goes on, run.db keeps every second", f.Second, cap(q.q))
		}
	}
}

// run writes what the queue holds, a batch at a time, until it is closed.
func (q *queued) run() {
	defer close(q.done)
	batch := make([]*Frame, 0, maxBatch)
	for f := range q.q {
		batch = append(batch[:0], f)
	fill:
		for len(batch) < maxBatch {
			select {
			case g, ok := <-q.q:
				if !ok {
					break fill
				}
				batch = append(batch, g)
			default:
				break fill
			}
		}
		q.write(batch)
	}
}

func (q *queued) write(batch []*Frame) {
	var err error
	if q.ctx.Err() != nil {
		err = errors.New("not sent: the run ended before the output caught up")
	} else {
		ctx, cancel := context.WithTimeout(q.ctx, q.timeout)
		err = q.sink.Write(ctx, batch)
		cancel()
		if err != nil && q.ctx.Err() != nil {
			err = fmt.Errorf("cut off at the end of the run: %w", err)
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if err == nil {
		q.sent += int64(len(batch))
		return
	}
	first := q.failed == 0
	q.failed += int64(len(batch))
	q.lastErr = err
	if first {
		q.warnf("second %d not delivered: %v; later failures are counted in the summary", batch[0].Second, err)
	}
}

func (q *queued) warnf(format string, args ...any) {
	if q.warn != nil {
		q.warn("output " + q.name + ": " + fmt.Sprintf(format, args...))
	}
}

// result reads the counts; call it once the goroutine has ended.
func (q *queued) result() Result {
	q.mu.Lock()
	defer q.mu.Unlock()
	r := Result{Output: q.name, Offered: q.offered, Sent: q.sent, QueueFull: q.full, Failed: q.failed}
	if q.lastErr != nil {
		r.LastErr = q.lastErr.Error()
	}
	return r
}
