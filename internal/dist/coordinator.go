// Package dist runs one test over many agents: the agent (loadlens agent),
// which runs the segment of a test it is given, and the coordinator, which
// splits the test, starts every agent at one instant, merges their
// per-second snapshots exactly and writes one run directory. The wire
// protocol is in protocol.go; docs/distributed.md says why it is so.
package dist

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/loadlens/loadlens/internal/app"
)

// Config is what a distributed run needs.
type Config struct {
	// TestFile is the test file's path. Its raw text and the CSV files it
	// names are sent to every agent; each agent parses it for itself.
	TestFile string
	// TestSource, when set, is the test's text instead of TestFile's: the
	// test URL mode makes from its flags (plan.URLOptions.TestFile).
	TestSource []byte
	// Env looks up the environment variables the test's templates read;
	// nil means the process environment. Only the values the test looked up
	// are sent to the agents, so every agent runs the same test.
	Env func(string) (string, bool)
	// Agents are the agents' addresses (host:port), one segment each, in
	// the order they are reported.
	Agents []string
	// Dial connects to an agent's address; nil uses a net.Dialer. The k8s
	// code passes one that reaches a pod through a port-forward.
	Dial func(ctx context.Context, addr string) (net.Conn, error)
	// Token is the shared secret every agent requires.
	Token string
	// TLS, when set, is the client side of TLS to the agents (its RootCAs
	// verify the agents; its Certificates are the coordinator's for mutual
	// TLS). ServerName is set per agent from its address when empty.
	TLS *tls.Config
	// SecondWait is how long after an agent's second is due the coordinator
	// waits for it before marking it missing; 0 means DefaultSecondWait.
	SecondWait time.Duration
	// Run says where and how the run is recorded and shown, as for a local
	// run; Plan and Segment are set by Coordinate and ignored here.
	Run app.RunConfig

	// Progress, when set, is given the merged totals after every second;
	// it must not block (the collector waits for it).
	Progress func(Progress)

	tap    func(agent string, snap []byte) // sees every second's snapshot as it came, for tests
	missed func(agent string, sec int)     // hears of every second marked missing, for tests
	build  Build                           // ThisBuild(Run.Version) unless a test set it
}

// buildOf is the coordinator's build, which every agent's must match.
func (c *Config) buildOf() Build {
	if c.build != (Build{}) {
		return c.build
	}
	return ThisBuild(c.Run.Version)
}

// DefaultSecondWait is how long a late second of an agent is waited for.
const DefaultSecondWait = 3 * time.Second

// Coordinate runs cfg.TestFile over cfg.Agents: it connects to every agent
// with the token (and TLS), measures each one's clock offset, gives each its
// exact segment of the test with the test's source and data files, starts
// them all at one agreed instant, merges their per-second snapshots into one
// run directory (run.db, report, summary.json, with a per-agent table),
// evaluating thresholds and abort_on_fail on the merged data as it goes, and
// scraping the test's observe targets once, here. An agent lost mid-run is
// reported with the second it was lost; the run goes on with the others.
// It returns as app.Run does; an agent that cannot be reached, refuses the
// token or rejects the test fails the run before it starts.
func Coordinate(ctx context.Context, cfg Config) (app.RunResult, error) {
	return coordinate(ctx, cfg)
}
