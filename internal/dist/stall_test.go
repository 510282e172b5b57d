package dist

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/series"
	"github.com/loadlens/loadlens/internal/store"
)

// TestStallIsTheLongestWaitingAgents: each second, the generator's waits
// for a CPU are those of the agent whose goroutines waited longest, and
// every agent that said has its own point; an agent that did not say has
// none, and a second no agent said has no figure.
func TestStallIsTheLongestWaitingAgents(t *testing.T) {
	layout := oneGETLayout()
	g := fakeGenerator(layout, 1, 1, 1)
	nan := math.NaN()
	for i, st := range []stall{{0.002, 0.1}, {0.009, 0.3}, {nan, nan}} {
		g.update(func() {
			g.agents[i].receive(0, 0.5, metrics.NewSnapshot(0, layout))
			g.agents[i].receiveHead(secondHead{sec: 0, cpu: 0.5, stall: st.p99, wait: st.wait})
		})
	}
	g.Second(0)
	if p99, wait := g.Stall(0); p99 != 0.009 || wait != 0.3 {
		t.Errorf("Stall(0) = %v, %v; want agent 2's 0.009 s and 0.3 cores", p99, wait)
	}
	got := g.AgentSeries(0)
	for agent, want := range map[string]float64{"agent 1": 0.002, "agent 2": 0.009} {
		s := got.Find(diagnose.AgentStall, diagnose.AgentLabel, agent+" ")
		if len(s) != 1 || len(s[0].Points) != 1 || s[0].Points[0].Value != want {
			t.Errorf("%s's stall: %+v, want one point %v", agent, s, want)
		}
	}
	if n := len(got.Find(diagnose.AgentStall, diagnose.AgentLabel, "agent 3 ")); n != 0 {
		t.Errorf("agent 3 said nothing of its waits, yet has %d stall series", n)
	}
	g.update(func() { g.agents[0].receive(1, 0.5, metrics.NewSnapshot(1, layout)) })
	g.Second(1)
	if p99, wait := g.Stall(1); !math.IsNaN(p99) || !math.IsNaN(wait) {
		t.Errorf("Stall(1) = %v, %v; want NaN: no agent said", p99, wait)
	}
}

// TestAgentCPUIsWeighedByTheTimeMeasured: an agent's mean CPU in the
// table is its CPU time over the time measured, so that the last second,
// cut short and busy with the agent's own ending, counts for what it
// lasted and not as a whole second (it made the mean 17 times too high).
func TestAgentCPUIsWeighedByTheTimeMeasured(t *testing.T) {
	layout := oneGETLayout()
	g := fakeGenerator(layout, 2)
	a := g.agents[0]
	heads := []secondHead{{sec: 0, cpu: 0.01, cpuWall: 1}, {sec: 1, cpu: 0.01, cpuWall: 1}, {sec: 2, cpu: 0.01, cpuWall: 1}, {sec: 3, cpu: 0.6, cpuWall: 0.02}}
	for _, h := range heads {
		g.update(func() {
			a.receive(h.sec, h.cpu, metrics.NewSnapshot(h.sec, layout))
			a.receiveHead(h)
		})
		g.Second(h.sec)
	}
	want := (3*0.01 + 0.6*0.02) / 3.02
	if got := g.Agents()[0].CPU; math.Abs(got-want) > 1e-12 {
		t.Errorf("agent 1's CPU = %v cores, want %v: its CPU seconds over the seconds measured", got, want)
	}
}

// TestDistributedRunRecordsTheAgentsStall runs the coordinator against a
// fake agent that reports distinctive waits for a CPU: run.db's generator
// stall and CPU-wait series are exactly those, second by second, not the
// coordinator's own, and a second the agent did not measure has no point.
func TestDistributedRunRecordsTheAgentsStall(t *testing.T) {
	srv, _ := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: stall\nbase_url: %s\nscenarios:\n  s:\n    vus: 1\n    duration: 3s\n    flow:\n      - get: /x\n", srv.URL), nil)
	p, ln := parseAndListen(t, path)
	sent := []stall{{0.0123, 0.25}, {0.0456, 0.5}, {math.NaN(), math.NaN()}}
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := fakeHandshake(nc, p.Layout)
		if c == nil {
			return
		}
		for sec, st := range sent {
			s := metrics.NewSnapshot(sec, p.Layout)
			s.Endpoints[0].Requests, s.Endpoints[0].Duration = 3, metrics.NewHist()
			for range 3 {
				s.Endpoints[0].Duration.Record(time.Millisecond)
			}
			b, _ := s.MarshalBinary()
			c.send(kindSecond, secondFrame(secondHead{sec: sec, cpu: 0.1, stall: st.p99, wait: st.wait}, b))
		}
		c.send(kindDone, done{Seconds: len(sent)})
	}()
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: []string{ln.Addr().String()}, Token: token, SecondWait: 2 * time.Second})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	set := runSeries(t, res.Dir)
	points := func(name string) map[int]float64 {
		out := map[int]float64{}
		for _, s := range set.Find(name) {
			for _, pt := range s.Points {
				out[pt.Sec] = pt.Value
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		want map[int]float64
	}{
		{diagnose.GeneratorStall, map[int]float64{0: 0.0123, 1: 0.0456}},
		{diagnose.GeneratorCPUWait, map[int]float64{0: 0.25, 1: 0.5}},
		{diagnose.AgentStall, map[int]float64{0: 0.0123, 1: 0.0456}},
	} {
		if got := points(c.name); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s in run.db: %v, want the agent's %v", c.name, got, c.want)
		}
	}
}

// runSeries reads the series of the run.db in dir.
func runSeries(t *testing.T, dir string) series.Set {
	t.Helper()
	rd, err := store.Open(filepath.Join(dir, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	set, err := rd.Series()
	if err != nil {
		t.Fatal(err)
	}
	return set
}
