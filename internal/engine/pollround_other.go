//go:build !linux

package engine

// pollRound needs Linux's eventfd: elsewhere a closed-model VU whose think
// time ended late starts at once, as before.
type pollRound struct{}

func newPollRound() *pollRound { return nil }

func (p *pollRound) round() bool { return false }

func (p *pollRound) close() {}
