package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/proto"
)

// needBinary returns the path of an installed program; missing, it fails
// the test under LOADLENS_CI=1 (CI installs it, see .ci/apt-packages) and
// skips it elsewhere.
func needBinary(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("LOADLENS_CI") == "1" {
		t.Fatalf("%s is not installed, and LOADLENS_CI=1 needs it (see .ci/apt-packages)", name)
	}
	t.Skipf("%s is not installed; skipped (set LOADLENS_CI=1 to make this a failure)", name)
	return ""
}

// freeAddr returns a 127.0.0.1 address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startDaemon starts a store on loopback, stops it when the test ends, and
// waits (at most a minute) until ready answers 2xx.
func startDaemon(t *testing.T, ready string, cmd *exec.Cmd) {
	t.Helper()
	log, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(time.Minute)
	for {
		if resp, err := http.Get(ready); err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return
			}
		}
		select {
		case <-exited:
			b, _ := os.ReadFile(log.Name())
			t.Fatalf("%s exited before it was ready:\n%s", cmd.Path, b)
		case <-time.After(100 * time.Millisecond): // polling readiness, bounded by the deadline
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(log.Name())
			t.Fatalf("%s was not ready within a minute:\n%s", cmd.Path, b)
		}
	}
}

// startPrometheus starts Debian's Prometheus with the remote-write receiver
// and native histograms, and returns its address.
func startPrometheus(t *testing.T) string {
	bin := needBinary(t, "prometheus")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\nscrape_configs: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	startDaemon(t, "http://"+addr+"/-/ready", exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--web.enable-remote-write-receiver", "--enable-feature=native-histograms"))
	return addr
}

// startInfluxDB starts Debian's InfluxDB 1.x with a database k6, and returns its address.
func startInfluxDB(t *testing.T) string {
	bin := needBinary(t, "influxd")
	dir := t.TempDir()
	addr, rpc := freeAddr(t), freeAddr(t)
	cfg := filepath.Join(dir, "influxdb.conf")
	conf := fmt.Sprintf(`reporting-disabled = true
bind-address = %q
[meta]
  dir = %q
[data]
  dir = %q
  wal-dir = %q
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = %q
  log-enabled = false
`, rpc, filepath.Join(dir, "meta"), filepath.Join(dir, "data"), filepath.Join(dir, "wal"), addr)
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, "http://"+addr+"/ping", exec.Command(bin, "-config", cfg))
	resp, err := http.PostForm("http://"+addr+"/query", url.Values{"q": {"CREATE DATABASE k6"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("CREATE DATABASE: %s", resp.Status)
	}
	return addr
}

// getJSON decodes the JSON answer of a GET.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// promValue runs an instant PromQL query and returns its one value.
func promValue(t *testing.T, addr, query string) float64 {
	t.Helper()
	var r struct {
		Data struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	getJSON(t, "http://"+addr+"/api/v1/query?"+url.Values{"query": {query}}.Encode(), &r)
	if len(r.Data.Result) != 1 {
		t.Fatalf("%s: %d results, want 1", query, len(r.Data.Result))
	}
	v, err := strconv.ParseFloat(r.Data.Result[0].Value[1].(string), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// influxValue runs an InfluxQL query and returns its one value.
func influxValue(t *testing.T, addr, query string) float64 {
	t.Helper()
	var r struct {
		Results []struct {
			Series []struct {
				Values [][]any `json:"values"`
			} `json:"series"`
			Error string `json:"error"`
		} `json:"results"`
	}
	getJSON(t, "http://"+addr+"/query?"+url.Values{"db": {"k6"}, "q": {query}}.Encode(), &r)
	if len(r.Results) != 1 || r.Results[0].Error != "" || len(r.Results[0].Series) != 1 || len(r.Results[0].Series[0].Values) != 1 {
		t.Fatalf("%s: %+v, want one value", query, r)
	}
	return r.Results[0].Series[0].Values[0][1].(float64)
}

// TestOutputsReadBackFromRealStores runs a test whose target fails one
// request in seven, sending its seconds to a real Prometheus (remote write)
// and a real InfluxDB 1.x, and reads the counts back from both: equal to
// summary.json's, exactly.
func TestOutputsReadBackFromRealStores(t *testing.T) {
	prom, influx := startPrometheus(t), startInfluxDB(t)
	otlpRecv, influx2 := &otlpReceiver{last: map[string]otlpPoint{}}, &influx2Receiver{seen: map[string]bool{}}
	otlpSrv, influx2Srv := httptest.NewServer(otlpRecv), httptest.NewServer(influx2)
	defer otlpSrv.Close()
	defer influx2Srv.Close()
	t.Setenv("LOADLENS_INFLUXDB_TOKEN", "tok-e2e")
	var n atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%7 == 0 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
		}
	}))
	defer target.Close()
	dir := t.TempDir()
	test := fmt.Sprintf(`name: outputs
base_url: %s
outputs:
  - influxdb=http://%s/write?db=k6
scenarios:
  browse:
    rate: 40
    duration: 4s
    flow:
      - get: /items
        check:
          - status: 200
      - get: /cart
`, target.URL, influx)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	res := loadlens(t, dir, "run", "t.yaml", "--quiet", "--no-dashboard", "--results", "results", "--out", "prometheus-rw=http://"+prom+"/api/v1/write",
		"--out", "otlp="+otlpSrv.URL+"/v1/metrics", "--out", "influxdb2="+influx2Srv.URL+"/api/v2/write?org=o&bucket=b")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "results"))
	id := filepath.Base(run)
	b, err := os.ReadFile(filepath.Join(run, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Metrics  map[string]map[string]any `json:"metrics"`
		Loadlens struct {
			FailuresByKind map[string]float64 `json:"failures_by_kind"`
			Outputs        []struct {
				Output  string  `json:"output"`
				Sent    float64 `json:"sent_seconds"`
				Dropped float64 `json:"dropped_seconds"`
			} `json:"outputs"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	reqs := sum.Metrics["http_reqs"]["count"].(float64)
	iters := sum.Metrics["iterations"]["count"].(float64)
	dropped := sum.Metrics["dropped_iterations"]["count"].(float64)
	fail5xx := sum.Loadlens.FailuresByKind["http_5xx"]
	checkFails := sum.Metrics["checks"]["fails"].(float64)
	if reqs != float64(n.Load()) || reqs < 300 || fail5xx == 0 {
		t.Fatalf("summary.json: %v requests (the target saw %d, want 320), %v 5xx", reqs, n.Load(), fail5xx)
	}
	for _, o := range sum.Loadlens.Outputs {
		if o.Dropped != 0 || o.Sent == 0 {
			t.Errorf("%s: %v seconds sent, %v dropped; want every second delivered", o.Output, o.Sent, o.Dropped)
		}
	}
	if len(sum.Loadlens.Outputs) != 4 {
		t.Errorf("summary.json lists %d outputs, want 4", len(sum.Loadlens.Outputs))
	}
	if got := otlpRecv.total("k6_http_reqs"); got != int64(reqs) {
		t.Errorf("OTLP: the last k6_http_reqs points add to %d, want %v (summary.json)", got, reqs)
	}
	if got := otlpRecv.total("k6_iterations"); got != int64(iters) {
		t.Errorf("OTLP: the last k6_iterations points add to %d, want %v (summary.json)", got, iters)
	}
	if err := influx2.result(); err != nil {
		t.Errorf("InfluxDB 2 receiver: %v", err)
	}
	if influx2.reqs != reqs || influx2.iters != iters {
		t.Errorf("InfluxDB 2 receiver: http_reqs add to %v, iterations to %v; want %v and %v (summary.json)", influx2.reqs, influx2.iters, reqs, iters)
	}

	sel := fmt.Sprintf(`{testid=%q}`, id)
	promChecks := []struct {
		query string
		want  float64
	}{
		{"sum(k6_http_reqs_total" + sel + ")", reqs},
		{fmt.Sprintf(`sum(k6_http_reqs_total{testid=%q,status="5xx"})`, id), fail5xx},
		{fmt.Sprintf(`sum(loadlens_http_req_failures_total{testid=%q,kind="http_5xx"})`, id), fail5xx},
		{"sum(k6_iterations_total" + sel + ")", iters},
		{"sum(k6_dropped_iterations_total" + sel + ")", dropped},
		{"sum(histogram_count(loadlens_http_req_duration_seconds" + sel + "))", reqs},
		{"count(k6_http_req_duration_p95" + sel + ")", 2},
		{fmt.Sprintf(`sum(k6_http_reqs_total{testid=%q,expected_response="false"})`, id), fail5xx},
		{"count(k6_checks_rate" + sel + ")", 1},
	}
	for _, c := range promChecks {
		if got := promValue(t, prom, c.query); got != c.want {
			t.Errorf("Prometheus: %s = %v, want %v (summary.json)", c.query, got, c.want)
		}
	}
	where := fmt.Sprintf(` WHERE "testid" = '%s'`, id)
	influxChecks := []struct {
		query string
		want  float64
	}{
		{`SELECT sum("value") FROM "http_reqs"` + where, reqs},
		{`SELECT sum("value") FROM "http_reqs"` + where + ` AND "status" = '5xx'`, fail5xx},
		{`SELECT sum("count") FROM "http_req_duration"` + where, reqs},
		{`SELECT sum("failed") FROM "http_req_failed"` + where, fail5xx},
		{`SELECT sum("value") FROM "iterations"` + where, iters},
		{`SELECT sum("value") FROM "dropped_iterations"` + where, dropped},
		{`SELECT sum("fails") FROM "checks"` + where, checkFails},
	}
	for _, c := range influxChecks {
		if got := influxValue(t, influx, c.query); got != c.want {
			t.Errorf("InfluxDB: %s = %v, want %v (summary.json)", c.query, got, c.want)
		}
	}
	for _, e := range dashboardExprs(t) {
		q := strings.NewReplacer("$testid", id, "$scenario", ".*", "$endpoint", ".*", "$__rate_interval", "1m").Replace(e)
		if strings.HasPrefix(q, "label_values(") || strings.Contains(q, "tls_handshaking") {
			continue // Grafana's own function; and this test's target speaks plain HTTP, so no handshake has a figure
		}
		var r struct {
			Status string
			Data   struct{ Result []any }
		}
		getJSON(t, "http://"+prom+"/api/v1/query?"+url.Values{"query": {q}}.Encode(), &r)
		if r.Status != "success" || len(r.Data.Result) == 0 {
			t.Errorf("the dashboard's %s finds nothing in Prometheus (%s)", q, r.Status)
		}
	}
	exp := loadlens(t, dir, "export", run, "--format", "csv")
	var exported float64
	for i, line := range strings.Split(strings.TrimSpace(exp.stdout), "\n") {
		f := strings.Split(line, ",")
		if i > 0 && f[0] == "endpoint" {
			v, _ := strconv.ParseFloat(f[6], 64) // the requests column
			exported += v
		}
	}
	if exp.code != 0 || exported != reqs {
		t.Errorf("loadlens export --format csv: exit %d, requests add to %v, want %v\n%s", exp.code, exported, reqs, exp.stderr)
	}
	if bad := loadlens(t, dir, "export", run, "--format", "xml"); bad.code != 2 || !strings.Contains(bad.stderr, "jsonl or csv") {
		t.Errorf("loadlens export --format xml: exit %d, %q; want 2 and the formats named", bad.code, bad.stderr)
	}
	if !strings.Contains(res.stdout, "output: prometheus-rw=http://"+prom) {
		t.Errorf("the run does not say where it sends its seconds:\n%s", res.stdout)
	}
}

// dashboardExprs returns the PromQL of every panel of deploy/grafana/loadlens.json.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../deploy/grafana/loadlens.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct{ Targets []struct{ Expr string } }
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d panel queries in the dashboard", len(out))
	}
	return out
}

// otlpPoint is the latest point of one cumulative series.
type otlpPoint struct {
	time  uint64
	value int64
}

// otlpReceiver is an OTLP/HTTP metrics endpoint: it decodes each export
// with the OTLP proto types and keeps the latest point of every sum series.
type otlpReceiver struct {
	mu   sync.Mutex
	last map[string]otlpPoint // metric and attributes → latest point
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var req collectorpb.ExportMetricsServiceRequest
	if err == nil {
		err = proto.Unmarshal(b, &req)
	}
	if err != nil || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, fmt.Sprint("bad export: ", err), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, rm := range req.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				for _, p := range m.GetSum().GetDataPoints() {
					key := m.Name + fmt.Sprint(p.Attributes)
					if p.TimeUnixNano >= o.last[key].time {
						o.last[key] = otlpPoint{p.TimeUnixNano, p.GetAsInt()}
					}
				}
			}
		}
	}
}

// total adds the latest points of a metric's series.
func (o *otlpReceiver) total(metric string) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	var n int64
	for k, p := range o.last {
		if strings.HasPrefix(k, metric+"[") {
			n += p.value
		}
	}
	return n
}

// influx2Receiver is an InfluxDB 2 write endpoint: it checks the token,
// reads every body with the strict line-protocol decoder, refuses a second
// point on one series and timestamp, and adds the counts.
type influx2Receiver struct {
	mu          sync.Mutex
	seen        map[string]bool
	reqs, iters float64
	err         error
}

func (x *influx2Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	x.mu.Lock()
	defer x.mu.Unlock()
	fail := func(err error) {
		if x.err == nil {
			x.err = err
		}
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
	if r.Header.Get("Authorization") != "Token tok-e2e" || r.URL.Query().Get("bucket") != "b" {
		fail(fmt.Errorf("token %q, bucket %q", r.Header.Get("Authorization"), r.URL.Query().Get("bucket")))
		return
	}
	dec := lineprotocol.NewDecoder(r.Body)
	for dec.Next() {
		m, err := dec.Measurement()
		if err != nil {
			fail(err)
			return
		}
		series := string(m)
		for {
			k, v, err := dec.NextTag()
			if err != nil {
				fail(err)
				return
			}
			if k == nil {
				break
			}
			series += "," + string(k) + "=" + string(v)
		}
		var value float64
		for {
			k, v, err := dec.NextField()
			if err != nil {
				fail(err)
				return
			}
			if k == nil {
				break
			}
			if string(k) == "value" {
				value = v.FloatV()
			}
		}
		ts, err := dec.Time(lineprotocol.Nanosecond, time.Time{})
		if err != nil {
			fail(err)
			return
		}
		key := series + " " + ts.String()
		if x.seen[key] {
			fail(fmt.Errorf("two points of %s", key))
			return
		}
		x.seen[key] = true
		switch string(m) {
		case "http_reqs":
			x.reqs += value
		case "iterations":
			x.iters += value
		}
	}
	if err := dec.Err(); err != nil {
		fail(err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (x *influx2Receiver) result() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}
