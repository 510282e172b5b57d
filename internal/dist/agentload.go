package dist

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// collectGrace is how long after a second ends the agent takes it: as the
// local collector does, so requests ending at the boundary are in it.
const collectGrace = 100 * time.Millisecond

// load waits for the agreed instant, runs the engine on the segment and
// sends each second's snapshot as it is taken, then the end. ctx ends with
// the coordinator (or its stop).
func (s *session) load(ctx context.Context, at time.Time) {
	p := s.plan
	rec := metrics.NewRecorder(p.Layout, 2*runtime.GOMAXPROCS(0))
	eng := engine.New(p, rec, engine.Options{Segment: s.seg, Start: at,
		Notify: func(msg string) { _ = s.c.send(kindNotice, notice{Text: clip(msg, maxNoticeText)}) }}) // the coordinator bounds them
	wait := time.NewTimer(time.Until(at))
	defer wait.Stop()
	select {
	case <-wait.C:
	case <-ctx.Done():
		d := done{Error: "stopped before the start: " + context.Cause(ctx).Error()}
		if s.own != nil && s.own.Err() != nil {
			d.Stopped = s.stoppedWhy()
		}
		_ = s.c.send(kindDone, d)
		return
	}
	fmt.Fprintf(s.cfg.Out, "agent: load started\n")
	engDone := make(chan error, 1)
	go func() { engDone <- eng.Run(ctx) }()
	meters := newAgentMeters()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var engErr error
	sec := 0
	send := func() bool {
		snap := rec.Collect(sec)
		snap.SetGauges(eng.Gauges(nil))
		snap.SetOffered(eng.Offered(sec, nil)) // by the schedule, as the local collector's
		b, err := snap.MarshalBinary()
		if err == nil {
			h := secondHead{sec: sec, inFlight: eng.InFlight()}
			meters.read(&h)
			err = s.c.send(kindSecond, secondFrame(h, b))
		}
		sec++
		return err == nil
	}
loop:
	for {
		timer.Reset(time.Until(at.Add(time.Duration(sec+1)*time.Second + collectGrace)))
		select {
		case <-timer.C:
			if !send() {
				break loop // the connection is gone; the read loop stops the load
			}
		case engErr = <-engDone:
			last := int(time.Since(at) / time.Second)
			for sec <= last && send() {
			}
			d := done{Seconds: sec}
			if engErr != nil {
				d.Error = clip(engErr.Error(), maxNoticeText)
			}
			if s.own != nil && s.own.Err() != nil {
				d.Stopped = clip(s.stoppedWhy(), maxNoticeText)
			}
			s.over.Store(true)
			_ = s.c.send(kindDone, d)
			if ctx.Err() != nil {
				fmt.Fprintf(s.cfg.Out, "agent: load stopped after %s: %v\n", units.CountOf(int64(sec), "second", "seconds"), context.Cause(ctx))
			} else {
				fmt.Fprintf(s.cfg.Out, "agent: load over after %s\n", units.CountOf(int64(sec), "second", "seconds"))
			}
			return
		}
	}
	<-engDone
	fmt.Fprintf(s.cfg.Out, "agent: load stopped after %s: the connection to the coordinator broke\n", units.CountOf(int64(sec), "second", "seconds"))
}
