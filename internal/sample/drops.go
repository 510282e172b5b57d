package sample

import "time"

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
