package cli

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/mock"
	"github.com/loadlens/loadlens/internal/units"
)

const mockUsage = "mock <mock.yaml> [flags]"

// mockTokenEnv names the variable that gives the mock's admin token,
// kept out of the command line as the dashboard's is.
const mockTokenEnv = "LOADLENS_MOCK_ADMIN_TOKEN"

// mockCmd serves a mock config until interrupted.
func mockCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "mock", mockUsage)
	listen := fs.String("listen", "", "address for HTTP/1.1 and h2c, overriding the file's listen: (default 127.0.0.1:8081)")
	tlsListen := fs.String("tls-listen", "", "also serve HTTPS (HTTP/1.1 and HTTP/2) here, overriding the file's tls.listen:")
	certOut := fs.String("write-cert", "", "write the TLS certificate (PEM) to this file, for clients to trust")
	check := fs.Bool("check", false, "check the config and exit, serving nothing")
	adminToken := fs.String("admin-token", "", "token the admin API asks for, as Authorization: Bearer (default: $"+mockTokenEnv+
		"; none on loopback, one made up and printed when the mock listens where other hosts reach it)")
	var envs listFlag
	fs.Var(&envs, "e", "KEY=VALUE environment variable for {{ env.KEY }} in the config (repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) != 1 {
		return fail(e, usageErr("mock takes one config file: loadlens %s", mockUsage))
	}
	lookup, err := envLookup(envs)
	if err != nil {
		return fail(e, err)
	}
	cfg, err := mock.ParseFile(pos[0], lookup)
	if err != nil {
		return fail(e, err)
	}
	if *listen != "" {
		cfg.Listen = *listen
	}
	if *tlsListen != "" {
		if cfg.TLS == nil {
			cfg.TLS = &mock.TLSConfig{}
		}
		cfg.TLS.Listen = *tlsListen
	}
	if cfg.AdminToken = *adminToken; cfg.AdminToken == "" {
		cfg.AdminToken = os.Getenv(mockTokenEnv)
	}
	if *check {
		fmt.Fprintf(e.stdout, "%s: ok — %s\n", pos[0], units.CountOf(int64(len(cfg.Routes)), "route", "routes"))
		return app.ExitOK
	}
	srv := mock.New(cfg)
	if err := srv.Listen(); err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "mock: %s from %s\n", units.CountOf(int64(len(cfg.Routes)), "route", "routes"), pos[0])
	fmt.Fprintf(e.stdout, "  http://%s  (HTTP/1.1, h2c)\n", srv.Addr())
	if c := srv.Certificate(); c != nil {
		how := "from " + cfg.TLS.CertFile
		if c.Generated {
			how = "generated, self-signed"
		}
		fmt.Fprintf(e.stdout, "  https://%s  (HTTP/1.1, HTTP/2; certificate %s)\n  certificate SHA-256 %s\n", srv.TLSAddr(), how, c.Fingerprint)
		if *certOut != "" {
			if err := os.WriteFile(*certOut, c.PEM, 0o644); err != nil {
				return fail(e, fmt.Errorf("--write-cert: %w", err))
			}
			fmt.Fprintf(e.stdout, "  certificate written to %s\n", *certOut)
		}
	}
	fmt.Fprintf(e.stdout, "  admin: http://%[1]s%[2]s/  metrics: http://%[1]s%[2]s/metrics\n", srv.Addr(), cfg.Admin)
	if note := adminNote(srv, cfg); note != "" {
		fmt.Fprintln(e.stdout, note)
	}
	for _, r := range cfg.Routes {
		fmt.Fprintf(e.stdout, "  %s\n", describeRoute(r))
	}
	fmt.Fprintln(e.stdout, "serving until interrupted (Ctrl-C)")
	e.watchStop()
	if err := srv.Serve(ctx); err != nil {
		return fail(e, err)
	}
	return app.ExitOK
}

// adminNote says which token the admin API requires: the one made up,
// because the mock listens where other hosts reach it, or the one given
// (not repeated); "" when none.
func adminNote(srv *mock.Server, cfg *mock.Config) string {
	switch token := srv.AdminToken(); {
	case token != "" && cfg.AdminToken == "":
		return fmt.Sprintf("  note: %s is reachable from other hosts: its admin API takes only requests with Authorization: Bearer %s (the metrics need none)", srv.Addr(), token)
	case token != "":
		return "  note: the admin API takes only requests with the token of --admin-token or $" + mockTokenEnv + ", as Authorization: Bearer (the metrics need none)"
	}
	return ""
}

// describeRoute is one line per route: its name, answer and behaviour.
func describeRoute(r *mock.Route) string {
	var parts []string
	b := r.Behavior()
	if b.Latency.Kind != "" {
		parts = append(parts, "latency "+b.Latency.String())
	}
	for _, f := range b.Faults {
		what := "reset"
		if !f.Reset {
			what = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(f.Statuses)), ","), "[]")
		}
		parts = append(parts, fmt.Sprintf("errors %g%% %s", f.Rate*100, what))
	}
	if b.Bandwidth > 0 {
		parts = append(parts, "bandwidth "+bandwidthText(b.Bandwidth))
	}
	line := fmt.Sprintf("%-32s → %d", r.Name, r.Status)
	if len(parts) > 0 {
		line += "  " + strings.Join(parts, "; ")
	}
	return line
}

// bandwidthText writes a mock's bandwidth: below 1 kB/s with three
// significant digits, so 1.5 B/s does not read as 2 B/s.
func bandwidthText(bps float64) string {
	if bps < 1000 {
		return strconv.FormatFloat(bps, 'g', 3, 64) + " B/s"
	}
	return units.ByteRate(bps)
}
