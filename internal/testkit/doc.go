// Package testkit holds the helpers that tests in several packages share:
// a buffer a process writes while the test reads it, judging timing only
// on a quiet host, and starting a `loadlens agent` process. Only _test
// files import it (internal/archtest lets no package do so).
package testkit
