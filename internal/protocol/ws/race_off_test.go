//go:build !race

package ws

// raceEnabled: the race detector multiplies memory and time.
const raceEnabled = false
