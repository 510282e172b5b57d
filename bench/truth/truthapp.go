package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Truthapp is the built Spring service and the OpenTelemetry Java agent.
type Truthapp struct {
	Jar, Agent string
}

// BuildTruthapp runs the service's build.sh (cached by it: a second call
// with nothing changed takes seconds) and reads the two paths it prints.
func BuildTruthapp(ctx context.Context, springDir string) (*Truthapp, error) {
	script := filepath.Join(springDir, "build.sh")
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("truthapp: %s not found (the Spring service of bench/truth/spring)", script)
	}
	cmd := exec.CommandContext(ctx, script)
	cmd.Dir = springDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("truthapp: %s: %v\n%s", script, err, lastLines(stderr.String(), 15))
	}
	t := &Truthapp{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "jar="); ok {
			t.Jar = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "agent="); ok {
			t.Agent = v
		}
	}
	if t.Jar == "" || t.Agent == "" {
		return nil, fmt.Errorf("truthapp: %s printed no jar= and agent= lines:\n%s", script, out)
	}
	return t, nil
}

// keep copies the jar and the agent into dir: build.sh keeps only its three
// newest builds, and a long session must not lose its own to another's build.
func (t *Truthapp) keep(dir string) (*Truthapp, error) {
	out := &Truthapp{Jar: filepath.Join(dir, "truthapp.jar"), Agent: filepath.Join(dir, filepath.Base(t.Agent))}
	for from, to := range map[string]string{t.Jar: out.Jar, t.Agent: out.Agent} {
		b, err := os.ReadFile(from)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// AppOptions are how a case starts truthapp: its fault properties, heap
// and CPU limit.
type AppOptions struct {
	Props map[string]string // --key=value, the spec's faults
	Xmx   string            // the heap; default 256m
	Quota float64           // cores; 0: no limit beyond the pinned core
}

// props returns o's properties in key order, as arguments.
func (o AppOptions) props() []string {
	keys := make([]string, 0, len(o.Props))
	for k := range o.Props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, "--"+k+"="+o.Props[k])
	}
	return out
}

// StartTruthapp starts the JVM on the target's CPU in its own container,
// with the agent sending spans to loadlens's receiver, and waits for
// Actuator's health.
func (l *Lab) StartTruthapp(ctx context.Context, o AppOptions, pg, redis, mock *Service) (*Service, error) {
	if l.App == nil {
		return nil, fmt.Errorf("truthapp is not built")
	}
	addr, err := listen()
	if err != nil {
		return nil, err
	}
	xmx := o.Xmx
	if xmx == "" {
		xmx = "256m"
	}
	gcLog := filepath.Join(l.Work, "gc-"+addr[len("127.0.0.1:"):]+".log") // the gc case's premise (premise.go)
	argv := []string{"java", "-Xmx" + xmx, gcLogFlag(gcLog)}
	if l.Layout.Target >= 0 {
		argv = append(argv, "-XX:ActiveProcessorCount=1") // sized for the one core it is pinned to once up
	}
	argv = append(argv, "-javaagent:"+l.App.Agent, "-jar", l.App.Jar,
		"--server.address=127.0.0.1", "--server.port="+addr[len("127.0.0.1:"):],
		"--spring.datasource.url=jdbc:postgresql://"+pg.Addr+"/truth", "--spring.datasource.username=postgres",
		"--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port="+redis.Addr[len("127.0.0.1:"):],
		"--truth.external-url="+mock.URL())
	argv = append(argv, o.props()...)
	env := []string{"OTEL_SERVICE_NAME=truthapp", "OTEL_EXPORTER_OTLP_ENDPOINT=http://" + l.OTLP,
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_METRICS_EXPORTER=none", "OTEL_LOGS_EXPORTER=none",
		"OTEL_TRACES_SAMPLER=parentbased_always_on",
		"OTEL_BSP_SCHEDULE_DELAY=1000"} // spans reach loadlens within a second, before its run ends
	// It starts on both cores without its limit (a JVM with its agent takes
	// minutes to start on one busy core), then is pinned and limited before
	// any load: what is measured runs as it would in its container.
	p, g, err := l.startIn(Spec{Name: "truthapp", Core: -1, Argv: argv, Env: env, Dir: l.Work}, "truthapp", "app", "app", 0)
	if err != nil {
		return nil, err
	}
	s := &Service{Proc: p, Addr: addr, Group: g, GCLog: gcLog}
	start := time.Now()
	if err := p.WaitHTTP(ctx, s.URL()+"/actuator/health", 10*time.Minute); err != nil { // 90-525 s on this busy host (spring/README.md)
		return s, err
	}
	if err := l.pinAll(p.Pid()); err != nil {
		return s, err
	}
	if err := l.SetQuota(s, o.Quota); err != nil {
		return s, err
	}
	logf("truthapp up in %s (%s)", time.Since(start).Round(100*time.Millisecond), strings.Join(o.props(), " "))
	return s, nil
}

// pinAll pins every thread of a running process to the target's CPU
// (threads it starts later inherit the mask).
func (l *Lab) pinAll(pid int) error {
	if l.Layout.Target < 0 {
		return nil
	}
	ts, err := exec.LookPath("taskset")
	if err != nil {
		return nil // the layout's pinning is best effort, as for every other process
	}
	out, err := exec.Command(ts, "-a", "-p", "-c", fmt.Sprint(l.Layout.Target), fmt.Sprint(pid)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("taskset -a -p %d: %v: %s", pid, err, out)
	}
	return nil
}
