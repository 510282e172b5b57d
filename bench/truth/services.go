package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// lookPath finds a program on PATH or in PostgreSQL's versioned bin directory.
func lookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name); len(m) > 0 {
		return m[len(m)-1], nil
	}
	return "", exec.ErrNotFound
}

// listen returns a free loopback address.
func listen() (string, error) {
	p, err := freePort()
	return "127.0.0.1:" + strconv.Itoa(p), err
}

// NodeExporter is node_exporter for the host's CPU, with the collectors
// the node preset reads only (the full set costs CPU the target needs).
func (l *Lab) NodeExporter(ctx context.Context) (*Service, error) {
	return l.sharedService(ctx, "node", func(ctx context.Context) (*Service, error) {
		bin, err := need("prometheus-node-exporter", "node_exporter")
		if err != nil {
			return nil, err
		}
		addr, err := listen()
		if err != nil {
			return nil, err
		}
		p, err := l.Procs.Start(Spec{Name: "node-exporter", Core: l.Layout.Gen, Argv: []string{bin, "--web.listen-address=" + addr,
			"--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.loadavg", "--collector.netdev"}})
		if err != nil {
			return nil, err
		}
		return &Service{Proc: p, Addr: addr}, p.WaitHTTP(ctx, "http://"+addr+"/metrics", 20*time.Second)
	})
}

// Postgres is PostgreSQL in a throw-away cluster (initdb into the
// session's directory), in its own container; truthapp creates its
// database "truth" itself.
func (l *Lab) Postgres(ctx context.Context) (*Service, error) {
	return l.sharedService(ctx, "postgres", func(ctx context.Context) (*Service, error) {
		initdb, err := need("initdb")
		if err != nil {
			return nil, err
		}
		bindir := filepath.Dir(initdb)
		dir, err := l.dir("pg")
		if err != nil {
			return nil, err
		}
		user := ""
		if os.Geteuid() == 0 { // PostgreSQL refuses to run as root
			user = "postgres"
			cred, err := credential(user)
			if err != nil {
				return nil, err
			}
			if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
				return nil, err
			}
		}
		data := filepath.Join(dir, "data")
		if _, err := os.Stat(data); err != nil {
			p, err := l.Procs.Start(Spec{Name: "initdb", Core: -1, User: user,
				Argv: []string{initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"}})
			if err != nil {
				return nil, err
			}
			if err := waitExit(ctx, p, 2*time.Minute); err != nil {
				return nil, err
			}
		}
		addr, err := listen()
		if err != nil {
			return nil, err
		}
		port := addr[len("127.0.0.1:"):]
		p, g, err := l.startIn(Spec{Name: "postgres", Core: l.Layout.Target, User: user, Argv: []string{filepath.Join(bindir, "postgres"),
			"-D", data, "-p", port, "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
			"-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"}}, "postgres", "postgres", "db", 0)
		if err != nil {
			return nil, err
		}
		return &Service{Proc: p, Addr: addr, Group: g}, p.WaitTCP(ctx, addr, time.Minute)
	})
}

// waitExit waits for a short-lived process and fails when it failed.
func waitExit(ctx context.Context, p *Proc, limit time.Duration) error {
	select {
	case <-p.done:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(limit):
		return fmt.Errorf("%s did not finish within %s", p.Name, limit)
	}
	if p.err != nil {
		return fmt.Errorf("%s: %v\n%s", p.Name, p.err, p.Tail(2000))
	}
	return nil
}

// Redis is redis-server without persistence, on the target's CPU.
func (l *Lab) Redis(ctx context.Context) (*Service, error) {
	return l.sharedService(ctx, "redis", func(ctx context.Context) (*Service, error) {
		bin, err := need("redis-server")
		if err != nil {
			return nil, err
		}
		addr, err := listen()
		if err != nil {
			return nil, err
		}
		p, err := l.Procs.Start(Spec{Name: "redis", Core: l.Layout.Target, Argv: []string{bin, "--port", addr[len("127.0.0.1:"):],
			"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"}})
		if err != nil {
			return nil, err
		}
		return &Service{Proc: p, Addr: addr}, p.WaitTCP(ctx, addr, 20*time.Second)
	})
}

// PostgresExporter is postgres_exporter of the cluster (its per-database
// series cover truth, which the service creates after it starts).
func (l *Lab) PostgresExporter(ctx context.Context, pg *Service) (*Service, error) {
	return l.sharedService(ctx, "postgres-exporter", func(ctx context.Context) (*Service, error) {
		bin, err := need("prometheus-postgres-exporter", "postgres_exporter")
		if err != nil {
			return nil, err
		}
		addr, err := listen()
		if err != nil {
			return nil, err
		}
		p, err := l.Procs.Start(Spec{Name: "postgres-exporter", Core: l.Layout.Gen, Argv: []string{bin, "--web.listen-address=" + addr},
			Env: []string{"DATA_SOURCE_NAME=postgresql://postgres@" + pg.Addr + "/postgres?sslmode=disable"}})
		if err != nil {
			return nil, err
		}
		return &Service{Proc: p, Addr: addr}, p.WaitHTTP(ctx, "http://"+addr+"/metrics", 20*time.Second)
	})
}

// RedisExporter is redis_exporter of the cache.
func (l *Lab) RedisExporter(ctx context.Context, redis *Service) (*Service, error) {
	return l.sharedService(ctx, "redis-exporter", func(ctx context.Context) (*Service, error) {
		bin, err := need("prometheus-redis-exporter", "redis_exporter")
		if err != nil {
			return nil, err
		}
		addr, err := listen()
		if err != nil {
			return nil, err
		}
		p, err := l.Procs.Start(Spec{Name: "redis-exporter", Core: l.Layout.Gen,
			Argv: []string{bin, "-redis.addr", "redis://" + redis.Addr, "-web.listen-address", addr}})
		if err != nil {
			return nil, err
		}
		return &Service{Proc: p, Addr: addr}, p.WaitHTTP(ctx, "http://"+addr+"/metrics", 20*time.Second)
	})
}

// Hogs starts n busy loops on a CPU (-1: anywhere): the catalogue's
// starved generator and busy host.
func (l *Lab) Hogs(n, core int) ([]*Proc, error) {
	var ps []*Proc
	for i := 0; i < n; i++ {
		p, err := l.Procs.Start(Spec{Name: "hog", Core: core, Argv: []string{"/bin/sh", "-c", "while :; do :; done"}})
		if err != nil {
			return ps, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}
