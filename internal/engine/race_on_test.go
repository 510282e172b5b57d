//go:build race

package engine

// raceEnabled: the race detector multiplies memory and time.
const raceEnabled = true
