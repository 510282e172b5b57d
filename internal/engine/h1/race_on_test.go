//go:build race

package h1

// raceEnabled: the race detector multiplies memory and time, and makes
// sync.Pool drop items at random (crypto/tls pools its record buffers).
const raceEnabled = true
