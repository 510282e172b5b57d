package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// nginxConf is a one-worker nginx answering every request with 100 bytes,
// its access log one status per line (the server's own count). It runs as
// one process (master_process off): the process the harness starts is the
// one that serves, so its process group and Pdeathsig cover it whole.
const nginxConf = `daemon off;
master_process off;
worker_processes 1;
pid @DIR@/nginx.pid;
error_log @DIR@/error.log warn;
events { worker_connections 8192; }
http {
  log_format truth '$status';
  access_log @DIR@/access.log truth;
  client_body_temp_path @DIR@/body;
  proxy_temp_path @DIR@/proxy;
  fastcgi_temp_path @DIR@/fastcgi;
  uwsgi_temp_path @DIR@/uwsgi;
  scgi_temp_path @DIR@/scgi;
  keepalive_requests 1000000;
  server {
    listen @ADDR@ backlog=4096;
    location / { default_type text/plain; return 200 "@BODY@"; }
  }
}
`

// Nginx is nginx on the target's CPU, in its own container; Log is its
// access log.
type Nginx struct {
	*Service
	Log string
}

// StartNginx starts nginx for one run (a fresh log each time).
func (l *Lab) StartNginx(ctx context.Context) (*Nginx, error) {
	bin, err := need("nginx")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(l.Work, "nginx-")
	if err != nil {
		return nil, err
	}
	addr, err := listen()
	if err != nil {
		return nil, err
	}
	conf := strings.NewReplacer("@DIR@", dir, "@ADDR@", addr, "@BODY@", strings.Repeat("x", 99)+`\n`).Replace(nginxConf)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	p, g, err := l.startIn(Spec{Name: "nginx", Core: l.Layout.Target, Argv: []string{bin, "-c", path, "-p", dir, "-e", filepath.Join(dir, "error.log")}},
		"nginx", "nginx", "app", 0)
	if err != nil {
		return nil, err
	}
	n := &Nginx{Service: &Service{Proc: p, Addr: addr, Group: g}, Log: filepath.Join(dir, "access.log")}
	if err := p.WaitHTTP(ctx, "http://"+addr+"/", 20*time.Second); err != nil {
		return nil, err
	}
	return n, os.Truncate(n.Log, 0) // the readiness probe is not the run's
}

// ShopOptions are the demo shop's start flags a case sets.
type ShopOptions struct {
	Pool int // DB pool size; 0: the shop's default
}

// StartShop starts `loadlens demo --serve` on the target's CPU, in its own
// container.
func (l *Lab) StartShop(ctx context.Context, o ShopOptions) (*Service, error) {
	addr, err := listen()
	if err != nil {
		return nil, err
	}
	argv := []string{l.LL.Bin, "demo", "--serve", "--addr", addr}
	if o.Pool > 0 {
		argv = append(argv, "--pool", fmt.Sprint(o.Pool))
	}
	p, g, err := l.startIn(Spec{Name: "shop", Core: l.Layout.Target, Argv: argv, Dir: l.Work}, "shop", "shop", "app", 0)
	if err != nil {
		return nil, err
	}
	s := &Service{Proc: p, Addr: addr, Group: g}
	return s, p.WaitHTTP(ctx, s.URL()+"/healthz", time.Minute)
}

// mockConf is the external pricing service truthapp calls: one route
// with a fixed latency.
const mockConf = `listen: @ADDR@
routes:
  - name: prices
    get: /prices/{id}
    body: '{"id": {{ id }}, "price_cents": 499, "currency": "EUR"}'
    latency: @LATENCY@
`

// StartMock starts `loadlens mock` as the slow external dependency, on the
// generator's CPU (it is another system, not the target's).
func (l *Lab) StartMock(ctx context.Context, latency time.Duration) (*Service, error) {
	addr, err := listen()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(l.Work, "mock-")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "mock.yaml")
	conf := strings.NewReplacer("@ADDR@", addr, "@LATENCY@", seconds(latency)).Replace(mockConf)
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	p, err := l.Procs.Start(Spec{Name: "mock", Core: l.Layout.Gen, Argv: []string{l.LL.Bin, "mock", path}})
	if err != nil {
		return nil, err
	}
	s := &Service{Proc: p, Addr: addr}
	return s, p.WaitHTTP(ctx, s.URL()+"/prices/1", 20*time.Second)
}
