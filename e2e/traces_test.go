package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/spans"
	"github.com/loadlens/loadlens/internal/store"
)

// port returns a port free on 127.0.0.1 a moment ago, as text, for a
// process that must be told its peer's address before that peer starts.
func port(t *testing.T) string { return strconv.Itoa(freePort(t)) }

// tracedTest samples 80 % of the requests, receives spans on port and runs the
// naive first page (a GROUP BY per request) beside cached product pages.
const tracedTest = `
name: traced
base_url: SHOP
timeout: 10s
tracing:
  sample: 0.8
  tracestate: true
  ui: "http://tempo.local:3200/trace/{trace_id}"
observe:
  traces: {listen: "127.0.0.1:PORT"}
scenarios:
  first_page:
    rate: 10
    duration: 12s
    flow:
      - get: /apps/first-page/{{ pick("GAME", "EDU", "SOCIAL") }}
        name: /apps/first-page/{category}
        headers: {X-Variant: naive}
  products:
    rate: 10
    duration: 12s
    flow:
      - get: /products/{{ randInt(1, 5) }}
        name: /products/{id}
        headers: {X-Variant: improved}
`

// runTraced runs tracedTest with the receiver on port against shop and
// checks what run.db, the summary and report.html say of the traces.
func runTraced(t *testing.T, shop, recvPort string) {
	t.Helper()
	dir := t.TempDir()
	body := strings.NewReplacer("SHOP", shop, "PORT", recvPort).Replace(tracedTest)
	path := writeTest(t, dir, "t.yaml", body)
	r := loadlens(t, dir, "run", path, "--quiet", "--no-dashboard", "--results", "results")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "results"))
	rd, err := store.Open(filepath.Join(run, "run.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	tr, err := rd.Traces()
	if err != nil || tr == nil {
		t.Fatalf("traces %v, %v", tr, err)
	}
	runData, err := rd.Run()
	if err != nil {
		t.Fatal(err)
	}
	total := runData.Total().Requests
	st := tr.Stats
	// 80 % of ~240 requests sampled: binomial bounds (±6σ) far from any plausible draw
	if total < 200 || float64(st.Sampled) < 0.65*float64(total) || float64(st.Sampled) > 0.95*float64(total) {
		t.Errorf("%d requests, %d sampled; want about 80 %%", total, st.Sampled)
	}
	if st.Unjoined != 0 || len(tr.Joined) != st.Sampled {
		t.Errorf("%d sampled requests, %d joined, %d without spans: every sampled request's spans should arrive", st.Sampled, len(tr.Joined), st.Unjoined)
	}
	perEp := map[int32]int{}
	for _, j := range tr.Joined {
		perEp[j.Endpoint]++
		var sum time.Duration
		for _, p := range j.Parts {
			sum += p.Time
		}
		if want := max(j.Duration, j.Server); sum != want {
			t.Errorf("trace %s: parts add up to %v, want %v", j.Trace, sum, want)
		}
	}
	for e, n := range perEp {
		if int64(n) > runData.Endpoints[e].Requests {
			t.Errorf("endpoint %d: %d joined traces, %d requests", e, n, runData.Endpoints[e].Requests)
		}
	}
	var firstPageDB, productsCache bool
	for _, s := range tr.Statements {
		firstPageDB = firstPageDB || (s.Endpoint == 0 && s.Kind == spans.PartDB && s.Span == "SELECT demo_apps")
		productsCache = productsCache || (s.Endpoint == 1 && s.Kind == spans.PartCache)
	}
	if !firstPageDB || !productsCache {
		t.Errorf("statements %+v: want the first page's SELECT demo_apps and the products' cache calls", tr.Statements)
	}
	for _, want := range []string{"WHERE THE TIME WENT", "db SELECT demo_apps", "p95 of GET /apps/first-page/{category} is ", "in one query: SELECT demo_apps"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, r.stdout)
		}
	}
	html, err := os.ReadFile(filepath.Join(run, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	slow := tr.Slowest[0][0].Trace.String()
	if !strings.Contains(string(html), `href="http://tempo.local:3200/trace/`+slow+`"`) {
		t.Errorf("report.html does not link the slowest trace %s", slow)
	}
}

// TestTracesFromTheShopDirectly: the demo shop exports its spans straight to
// the receiver the test file starts.
func TestTracesFromTheShopDirectly(t *testing.T) {
	p := port(t)
	shop := startShop(t, "--otlp-endpoint", "http://127.0.0.1:"+p)
	runTraced(t, shop, p)
}

// TestTracesThroughARealCollector: the shop exports to an OpenTelemetry
// Collector (core, built by .ci/build-otelcol) whose otlphttp exporter
// forwards to loadlens, gzip-compressed protobuf as collectors send it.
func TestTracesThroughARealCollector(t *testing.T) {
	bin := os.Getenv("LOADLENS_OTELCOL")
	if bin == "" {
		if home, err := os.UserHomeDir(); err == nil {
			bin = filepath.Join(home, ".cache", "loadlens-ci", "otelcol-v0.160.0", "otelcol", "otelcol-loadlens")
		}
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("no OpenTelemetry Collector at %q (build one with .ci/build-otelcol and set LOADLENS_OTELCOL)", bin)
		if os.Getenv("LOADLENS_CI") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg + "; skipped (set LOADLENS_CI=1 to make this a failure)")
	}
	in, out := port(t), port(t)
	cfg := writeTest(t, t.TempDir(), "otelcol.yaml", fmt.Sprintf(`
receivers:
  otlp:
    protocols:
      http: {endpoint: "127.0.0.1:%s"}
processors:
  batch: {timeout: 200ms}
exporters:
  otlphttp:
    endpoint: "http://127.0.0.1:%s"
    compression: gzip
service:
  telemetry:
    metrics: {level: none}
  pipelines:
    traces: {receivers: [otlp], processors: [batch], exporters: [otlphttp]}
`, in, out))
	col := exec.Command(bin, "--config", cfg)
	col.Stdout, col.Stderr = os.Stderr, os.Stderr
	if err := col.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { col.Process.Kill(); col.Wait() })
	waitFor(t, 30*time.Second, "the collector's OTLP receiver", func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+in)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	shop := startShop(t, "--otlp-endpoint", "http://127.0.0.1:"+in)
	runTraced(t, shop, out)
}
