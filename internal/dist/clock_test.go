package dist

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// TestClockOffsetSetsEachAgentsStart measures an agent whose clock is 2 s
// ahead: the offset is found within the probe's round trip, and the agent is
// told to start at the agreed instant on its own clock.
func TestClockOffsetSetsEachAgentsStart(t *testing.T) {
	const skew = 2 * time.Second
	coord, agent := net.Pipe()
	defer coord.Close()
	defer agent.Close()
	starts := make(chan start, 1)
	go func() {
		c := newConn(agent)
		for {
			f, err := c.read()
			if err != nil {
				return
			}
			switch f.kind {
			case kindPing:
				c.send(kindPong, pong{AgentNanos: time.Now().Add(skew).UnixNano()})
			case kindStart:
				var s start
				json.Unmarshal(f.body, &s)
				starts <- s
			}
		}
	}()
	r := &remote{name: "agent 1", nc: coord, c: newConn(coord)}
	if err := r.measureClock(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := (r.offset - skew).Abs(); d > r.rtt || r.rtt <= 0 {
		t.Fatalf("offset %s with round trip %s; the agent's clock is %s ahead", r.offset, r.rtt, skew)
	}
	layout := sample.Layout{Endpoints: []sample.EndpointInfo{{Name: "GET /"}}}
	g := fakeGenerator(layout, 1)
	g.agents[0].remote = r
	now := time.Now()
	at := g.Start(now, func(string) {})
	if at.Sub(now) != startMargin {
		t.Errorf("the start is %s after now, want %s", at.Sub(now), startMargin)
	}
	select {
	case s := <-starts:
		if got := time.Unix(0, s.AtNanos).Sub(at); got != r.offset {
			t.Errorf("the agent was told to start %s after the agreed instant, want its offset %s", got, r.offset)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no start message within 10s")
	}
}
