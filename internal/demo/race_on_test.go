//go:build race

package demo

// raceEnabled tells timing tests that the race detector slows everything down.
const raceEnabled = true
