package main

import (
	"context"
	"fmt"
	"time"
)

// The catalogue's targets.
const (
	TargetTruthapp = "truthapp"
	TargetShop     = "shop"
	TargetNginx    = "nginx"
)

// Deploy is how one run's system under test is started.
type Deploy struct {
	Target      string
	Shop        ShopOptions
	App         AppOptions
	MockLatency time.Duration // the external pricing service's; default 20 ms
	DBQuota     float64       // PostgreSQL's CPU limit in cores; 0: none
}

// Stack is a started system under test: where to send load, what
// loadlens observes of it, and the server's own request count.
type Stack struct {
	Base    string
	Targets []ObserveTarget
	Traces  string // loadlens's OTLP receiver address, when the target sends spans
	Counter func(routes []string) Counter
	Main    *Service
	down    []func()
}

// Down stops what Up started for this run (shared services stay up).
func (s *Stack) Down() {
	for i := len(s.down) - 1; i >= 0; i-- {
		s.down[i]()
	}
	s.down = nil
}

// routeSet turns routes into a set.
func routeSet(routes []string) map[string]bool {
	m := map[string]bool{}
	for _, r := range routes {
		m[r] = true
	}
	return m
}

// Up starts d's target for one run.
func (l *Lab) Up(ctx context.Context, d Deploy) (*Stack, error) {
	node, err := l.NodeExporter(ctx)
	if err != nil {
		return nil, err
	}
	st := &Stack{Targets: []ObserveTarget{{Name: "host", URL: node.URL() + "/metrics", Preset: "node", Labels: map[string]string{"role": "host"}}}}
	switch d.Target {
	case TargetShop:
		err = l.upShop(ctx, d, st)
	case TargetNginx:
		err = l.upNginx(ctx, st)
	case TargetTruthapp:
		err = l.upTruthapp(ctx, d, st)
	default:
		err = fmt.Errorf("unknown target %q", d.Target)
	}
	if err != nil {
		st.Down()
		return nil, err
	}
	return st, nil
}

// cadvisor is the observe target of one deployment in the exporter.
func (l *Lab) cadvisor(deployment, role string) ObserveTarget {
	return ObserveTarget{Name: "cadvisor-" + deployment, URL: "http://" + l.Exp.Addr + "/metrics/cadvisor", Preset: "cadvisor",
		KubeDeployment: deployment, Labels: map[string]string{"role": role}}
}

func (l *Lab) upShop(ctx context.Context, d Deploy, st *Stack) error {
	shop, err := l.StartShop(ctx, d.Shop)
	if shop != nil {
		st.down = append(st.down, func() { l.stop(shop, "shop") })
	}
	if err != nil {
		return err
	}
	st.Main, st.Base = shop, shop.URL()
	labels := map[string]string{"role": "app"}
	if l.Layout.Target >= 0 {
		labels["cpu_limit"] = "1" // pinned to one core: all it may use
	}
	st.Targets = append(st.Targets, ObserveTarget{Name: "shop", URL: shop.URL() + "/metrics", Preset: "go", Labels: labels},
		l.cadvisor("shop", "app"))
	st.Counter = func(routes []string) Counter {
		return metricsCounter{url: shop.URL() + "/metrics", routes: routeSet(routes)}
	}
	return nil
}

func (l *Lab) upNginx(ctx context.Context, st *Stack) error {
	n, err := l.StartNginx(ctx)
	if n != nil {
		st.down = append(st.down, func() { l.stop(n.Service, "nginx") })
	}
	if err != nil {
		return err
	}
	st.Main, st.Base = n.Service, n.URL()
	st.Targets = append(st.Targets, l.cadvisor("nginx", "app"))
	st.Counter = func([]string) Counter { return logCounter{path: n.Log} }
	return nil
}

func (l *Lab) upTruthapp(ctx context.Context, d Deploy, st *Stack) error {
	pg, err := l.Postgres(ctx)
	if err != nil {
		return err
	}
	if err := l.SetQuota(pg, d.DBQuota); err != nil {
		return err
	}
	st.down = append(st.down, func() { _ = l.SetQuota(pg, 0) })
	redis, err := l.Redis(ctx)
	if err != nil {
		return err
	}
	pgx, err := l.PostgresExporter(ctx, pg)
	if err != nil {
		return err
	}
	rx, err := l.RedisExporter(ctx, redis)
	if err != nil {
		return err
	}
	lat := d.MockLatency
	if lat == 0 {
		lat = 20 * time.Millisecond
	}
	mock, err := l.StartMock(ctx, lat)
	if mock != nil {
		st.down = append(st.down, func() { l.stop(mock, "") })
	}
	if err != nil {
		return err
	}
	app, err := l.StartTruthapp(ctx, d.App, pg, redis, mock)
	if app != nil {
		st.down = append(st.down, func() { l.stop(app, "truthapp") })
	}
	if err != nil {
		return err
	}
	st.Main, st.Base, st.Traces = app, app.URL(), l.OTLP
	st.Targets = append(st.Targets,
		ObserveTarget{Name: "app", URL: app.URL() + "/actuator/prometheus", Preset: "spring", Labels: map[string]string{"role": "app"}},
		ObserveTarget{Name: "postgres", URL: pgx.URL() + "/metrics", Preset: "postgres", Interval: 2 * time.Second, Labels: map[string]string{"role": "db"}},
		ObserveTarget{Name: "redis", URL: rx.URL() + "/metrics", Preset: "redis", Interval: 2 * time.Second, Labels: map[string]string{"role": "cache"}},
		l.cadvisor("truthapp", "app"), l.cadvisor("postgres", "db"),
		ObserveTarget{Name: "ksm", URL: "http://" + l.Exp.Addr + "/metrics", Preset: "kube-state-metrics", Interval: 5 * time.Second})
	st.Counter = func(routes []string) Counter {
		return metricsCounter{url: app.URL() + "/actuator/prometheus", routes: routeSet(routes)}
	}
	return nil
}
