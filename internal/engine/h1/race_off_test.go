//go:build !race

package h1

// raceEnabled: the race detector multiplies memory and time.
const raceEnabled = false
