package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/demo"
	"github.com/loadlens/loadlens/internal/demorun"
)

func demoCmd(ctx context.Context, e *env, args []string) int {
	if len(args) > 0 && args[0] == "seed" {
		return demoSeedCmd(ctx, e, args[1:])
	}
	fs := newFlagSet(e, "demo", "demo [--quick] [--traces] [--serve] [--addr ADDR]")
	serve := fs.Bool("serve", false, "only start the demo shop, for your own tests")
	quick := fs.Bool("quick", false, "one 10-second run against the improved shop instead of the naive-then-improved session")
	inProcess := fs.Bool("in-process", false, "serve the shop from this process instead of its own (the generator's CPU figures then include the shop)")
	var shop demo.Options
	variant := fs.String("variant", "naive", "with --serve: the variant for requests without an X-Variant header (naive, improved, naive-tx, naive-lock, naive-race)")
	fs.IntVar(&shop.PoolSize, "pool", 0, "the shop's DB pool size (default 10)")
	fs.StringVar(&shop.Postgres, "postgres", "", "use this PostgreSQL DSN instead of embedded SQLite")
	fs.StringVar(&shop.Redis, "redis", "", "use the Redis server at this address as the cache")
	fs.IntVar(&shop.Rows, "rows", 0, "feed posts to seed (default: the shop's own)")
	fs.StringVar(&shop.SQLitePath, "sqlite", "", "keep the shop's SQLite database in this file (default: a temporary one)")
	// The environment is read after parsing, so the help states the default once.
	fs.StringVar(&shop.OTLPEndpoint, "otlp-endpoint", "", "with --serve: export the shop's spans over OTLP/HTTP to this base URL (default: $OTEL_EXPORTER_OTLP_ENDPOINT; none when unset)")
	traces := fs.Bool("traces", false, "sample every request, have the shop export its spans to loadlens, and show per endpoint where the time went (DB, cache, service)")
	addr := fs.String("addr", "", "address for the shop (default: a free port on 127.0.0.1; with --serve, 127.0.0.1:8080)")
	results := fs.String("results", app.DefaultResults, "parent directory of run directories")
	quiet := fs.Bool("quiet", false, "no live progress line")
	var out outputFlags
	out.register(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("demo takes no arguments"))
	}
	if !setFlags(fs)["otlp-endpoint"] {
		shop.OTLPEndpoint = os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if *serve && *addr == "" {
		*addr = "127.0.0.1:8080"
	}
	if shop.DefaultVariant, err = demo.ParseVariant(*variant); err != nil {
		return fail(e, usageErr("--variant: %v", err))
	}
	shop.Addr = *addr
	var shopCmd []string
	if !*serve && !*inProcess {
		if shopCmd, err = shopCommand(args, *addr); err != nil {
			return fail(e, err)
		}
	}
	rc, err := out.runConfig(app.RunConfig{ResultsDir: *results, Out: e.stdout, TTY: e.tty, Quiet: *quiet,
		Args: storedArgs(fs, e.args), Version: app.Version})
	if err != nil {
		return fail(e, err)
	}
	e.watchStop()
	res, err := demorun.Demo(ctx, demorun.DemoConfig{Serve: *serve, Quick: *quick, Shop: shop, ShopCommand: shopCmd, Traces: *traces, Run: rc})
	if err != nil {
		fail(e, err)
		return app.ExitAfter(res.ExitCode, err)
	}
	return res.ExitCode
}

// shopCommand is this program serving the shop in a process of its own,
// with the shop's flags passed on.
func shopCommand(args []string, addr string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to serve the demo shop: %w (use --in-process)", err)
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	cmd := []string{exe, "demo", "--serve", "--addr", addr}
	keep := map[string]bool{}
	for _, f := range []string{"pool", "postgres", "redis", "rows", "sqlite", "otlp-endpoint"} {
		keep["-"+f], keep["--"+f] = true, true
	}
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(args[i], "=")
		if !keep[name] {
			continue
		}
		cmd = append(cmd, args[i])
		if !hasValue && i+1 < len(args) {
			cmd = append(cmd, args[i+1])
			i++
		}
	}
	return cmd, nil
}

// demoSeedCmd seeds the shop's feed into a database that outlives the
// shop, like the field report that reseeded from a dump instead of loops.
func demoSeedCmd(ctx context.Context, e *env, args []string) int {
	fs := newFlagSet(e, "demo seed", "demo seed --rows N (--postgres DSN | --sqlite FILE)")
	var o demo.Options
	rows := fs.Int("rows", 200000, "feed posts to insert (each with its comments)")
	fs.StringVar(&o.Postgres, "postgres", "", "seed this PostgreSQL database")
	fs.StringVar(&o.SQLitePath, "sqlite", "", "or: seed this SQLite file (serve it with demo --serve --sqlite FILE)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return app.ExitBadInput
	}
	if len(pos) > 0 {
		return fail(e, usageErr("demo seed takes flags only"))
	}
	e.watchStop()
	if err := demo.SeedTo(ctx, o, *rows); err != nil {
		return fail(e, usageErr("%v", err))
	}
	fmt.Fprintf(e.stdout, "seeded %d feed posts\n", *rows)
	return app.ExitOK
}
