package cli

import (
	"context"
	"os"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/dist"
)

const agentUsage = "agent --listen ADDR --token-file F [flags]"

// agentCmd serves coordinators of distributed runs until interrupted.
func agentCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "agent", agentUsage)
	listen := fs.String("listen", os.Getenv("LOADLENS_AGENT_LISTEN"), "address to listen on, e.g. 0.0.0.0:6565 (env LOADLENS_AGENT_LISTEN)")
	tokenFile := fs.String("token-file", os.Getenv("LOADLENS_TOKEN_FILE"), "file holding the token a coordinator must present (env LOADLENS_TOKEN_FILE)")
	cert := fs.String("tls-cert", "", "serve TLS with this certificate (PEM)")
	key := fs.String("tls-key", "", "the certificate's key (PEM)")
	clientCA := fs.String("tls-client-ca", "", "require coordinators to present a certificate signed by this CA (mutual TLS)")
	once := fs.Bool("once", false, "exit after one run (a Kubernetes Job's pod)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 0 {
		return fail(e, usageErr("agent takes no arguments: loadlens %s", agentUsage))
	}
	if *listen == "" {
		return fail(e, usageErr("agent: --listen (or LOADLENS_AGENT_LISTEN) is required, e.g. 0.0.0.0:6565"))
	}
	if *tokenFile == "" {
		return fail(e, usageErr("agent: --token-file (or LOADLENS_TOKEN_FILE) is required: an agent runs tests only for a coordinator that presents the token"))
	}
	token, err := dist.ReadToken(*tokenFile)
	if err != nil {
		return fail(e, usageErr("agent: %v", err))
	}
	cfg := dist.AgentConfig{Listen: *listen, Token: token, Index: strings.TrimSpace(os.Getenv("LOADLENS_AGENT_INDEX")), Once: *once,
		Out: e.stdout, Version: app.Version, Machine: machineFor}
	if *cert != "" || *key != "" || *clientCA != "" {
		if *cert == "" || *key == "" {
			return fail(e, usageErr("agent: TLS needs both --tls-cert and --tls-key"))
		}
		if cfg.TLS, err = dist.ServerTLS(*cert, *key, *clientCA); err != nil {
			return fail(e, usageErr("agent: %v", err))
		}
	}
	e.watchStop()
	if err := dist.Serve(ctx, cfg); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}
