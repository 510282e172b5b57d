package cli

import (
	"context"
	"flag"
	"os"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/dist"
	"github.com/loadlens/loadlens/internal/plan"
)

// distFlags are run's flags for a run over agents.
type distFlags struct {
	agents                 string
	local                  int
	tokenFile              string
	tlsCA, tlsCert, tlsKey string
	machine                plan.Machine // what --local-agents is capped by; the zero value reads this machine's
}

func (d *distFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.agents, "agents", "", "run over these agents, host:port,host:port (see docs/distributed.md)")
	fs.IntVar(&d.local, "local-agents", 0, "run over N agent processes started on 127.0.0.1 (and stopped after); at most 8 a core, as memory and open files allow")
	fs.StringVar(&d.tokenFile, "token-file", os.Getenv("LOADLENS_TOKEN_FILE"), "with --agents: the file holding the agents' token (env LOADLENS_TOKEN_FILE)")
	fs.StringVar(&d.tlsCA, "tls-ca", "", "with --agents: verify the agents' TLS certificates with this CA (PEM)")
	fs.StringVar(&d.tlsCert, "tls-cert", "", "with --agents: the coordinator's certificate for agents requiring mutual TLS")
	fs.StringVar(&d.tlsKey, "tls-key", "", "with --agents: the key of --tls-cert")
}

func (d *distFlags) distributed() bool { return d.agents != "" || d.local != 0 }

// check refuses combinations a distributed run cannot honour.
func (d *distFlags) check(segment string, noMetrics bool) error {
	switch {
	case d.agents != "" && d.local != 0:
		return usageErr("--agents and --local-agents: choose one")
	case d.local < 0:
		return usageErr("--local-agents must be at least 1, got %d", d.local)
	case segment != "":
		return usageErr("--segment and agents: the coordinator gives each agent its segment")
	case noMetrics:
		return usageErr("--no-metrics applies to a run in one process")
	case d.agents != "" && d.tokenFile == "":
		return usageErr("--agents needs --token-file (or LOADLENS_TOKEN_FILE): the agents run tests only for a coordinator that presents their token")
	}
	return d.checkLocal()
}

// checkLocal refuses more local agents than this machine can run.
func (d *distFlags) checkLocal() error {
	m := d.machine
	if m == (plan.Machine{}) {
		m = readMachine()
	}
	if most, why := dist.MaxLocalAgents(m); d.local > most {
		return usageErr("--local-agents %d: this machine can run at most %d local agents: %s; for more, run agents on other machines (--agents)", d.local, most, why)
	}
	return nil
}

// runDistributed runs the test over agents: given ones, or local ones it
// starts and stops. The test is file's, or source when URL mode made it.
func runDistributed(ctx context.Context, e *env, d *distFlags, file string, source []byte, lookup func(string) (string, bool), rc app.RunConfig) int {
	cfg := dist.Config{TestFile: file, TestSource: source, Env: lookup, Run: rc}
	if d.local > 0 {
		exe, err := os.Executable()
		if err != nil {
			return fail(e, err)
		}
		local, err := dist.StartLocal(ctx, exe, d.local, e.stderr) // the first Ctrl-C or SIGTERM stops the starting
		if err != nil {
			return fail(e, err)
		}
		defer local.Stop()
		cfg.Agents, cfg.Token = local.Addrs, local.Token
	} else {
		for _, a := range strings.Split(d.agents, ",") {
			if a = strings.TrimSpace(a); a != "" {
				cfg.Agents = append(cfg.Agents, a)
			}
		}
		tok, err := dist.ReadToken(d.tokenFile)
		if err != nil {
			return fail(e, usageErr("--token-file: %v", err))
		}
		cfg.Token = tok
		if d.tlsCA != "" || d.tlsCert != "" || d.tlsKey != "" {
			if cfg.TLS, err = dist.ClientTLS(d.tlsCA, d.tlsCert, d.tlsKey); err != nil {
				return fail(e, usageErr("%v", err))
			}
		}
	}
	res, err := dist.Coordinate(ctx, cfg)
	if err != nil {
		fail(e, err)
		return app.ExitAfter(res.ExitCode, err)
	}
	return res.ExitCode
}

// refuseShortcutsOverAgents refuses k6's -u/-d/-i with a test file in a
// distributed run, saying why: they replace the file's load in a run in
// one process, but the agents are sent the file as written (before, the
// message said they were URL mode's flags, which they are not).
func refuseShortcutsOverAgents(set map[string]bool) error {
	for _, f := range []string{"u", "vus", "d", "duration", "i", "iterations"} {
		if set[f] {
			dash := "--"
			if len(f) == 1 {
				dash = "-"
			}
			return usageErr("%s%s with a test file and agents: k6's -u/-d/-i replace a test file's load in a run in one process, but a distributed run sends its agents the test file as written; set the scenarios' load in the file (vus:, duration:, iterations:), or run without agents", dash, f)
		}
	}
	return nil
}
