package sample

import (
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// DropCounter is implemented by a Sink that can record many dropped
// iterations at once. The engine uses it when its open-model scheduler
// falls far behind (e.g. a rate of 1e18/s) and counts the arrivals it
// missed by arithmetic; a Sink without it gets Dropped calls, at most
// MaxDropCalls of them per batch.
type DropCounter interface {
	// DroppedN records n iterations that could not start, at offset at.
	DroppedN(scenario int32, at time.Duration, n int64)
}

// MaxDropCalls bounds the Dropped calls that stand in for one DroppedN on a
// Sink without it.
const MaxDropCalls = 1 << 16

// Drops is what an open-model scenario's dropped iterations came to when
// its schedule ended, as the engine saw them: the facts its notice says
// (Notice), kept as data so that a caller weighing them (a capacity
// search's advice) need not read the words back.
type Drops struct {
	Scenario int32  // the scenario's id: its index in the plan's scenarios
	Label    string // "scenario NAME: " when the test has several, else ""
	N        int64  // iterations dropped
	// ByTarget is set when every VU was busy waiting for the target (a
	// bound such as max_vus, or the target's latency, held the pool);
	// otherwise the generator itself could not keep up.
	ByTarget bool
	Held     string // what held the VU pool, in words: "the VU pool was held at 48 for a moment: …"
}

// Notice is the drops' one-line notice: "the generator could not keep up:
// 67 iterations dropped; the VU pool was held at 48 …".
func (d Drops) Notice() string {
	return d.Label + d.lead() + ": " + units.CountOf(d.N, "iteration", "iterations") + " dropped; " + d.Held
}

// Cause is Notice without the count: whose limit it was and what held
// the pool.
func (d Drops) Cause() string { return d.Label + d.lead() + ": " + d.Held }

func (d Drops) lead() string {
	if d.ByTarget {
		return "every VU was busy waiting for the target"
	}
	return "the generator could not keep up"
}
