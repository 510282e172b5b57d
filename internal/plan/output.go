package plan

import (
	"fmt"
	"net/url"
	"strings"
)

// The kinds of output a run can send its per-second metrics to.
const (
	OutPrometheusRW = "prometheus-rw" // Prometheus remote write 1.0
	OutInfluxDB     = "influxdb"      // InfluxDB 1.x /write, line protocol
	OutInfluxDB2    = "influxdb2"     // InfluxDB 2.x /api/v2/write, line protocol, token from the environment
	OutOTLP         = "otlp"          // OTLP metrics over HTTP protobuf
)

// InfluxTokenEnv names the variable that holds the InfluxDB 2 token, kept
// out of the command line and the test file where others could read it.
const InfluxTokenEnv = "LOADLENS_INFLUXDB_TOKEN"

// OutputKinds returns the kinds --out and outputs: accept, in the order docs list them.
func OutputKinds() []string {
	return []string{OutPrometheusRW, OutInfluxDB, OutInfluxDB2, OutOTLP}
}

// Output is where a run sends its per-second metrics while it runs.
type Output struct {
	Kind string // one of OutputKinds
	URL  string // the address to write to
}

// String returns the output as written on the command line.
func (o Output) String() string { return o.Kind + "=" + o.URL }

// ParseOutput reads KIND=URL, as --out and the outputs: list write it.
func ParseOutput(s string) (Output, error) {
	kind, addr, ok := strings.Cut(s, "=")
	if !ok || kind == "" {
		return Output{}, fmt.Errorf("%q: want KIND=URL, e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write (kinds: %s)", Redact(s), strings.Join(OutputKinds(), ", "))
	}
	known := false
	for _, k := range OutputKinds() {
		known = known || k == kind
	}
	if !known {
		return Output{}, fmt.Errorf("unknown output kind %q: want one of %s", kind, strings.Join(OutputKinds(), ", "))
	}
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Output{}, fmt.Errorf("%s: bad URL %q: expected http:// or https:// and a host, like %s", kind, Redact(addr), outputExample(kind))
	}
	switch q := u.Query(); kind {
	case OutInfluxDB:
		if q.Get("db") == "" {
			return Output{}, fmt.Errorf("%s: URL %q names no database: add ?db=NAME, like %s", kind, Redact(addr), outputExample(kind))
		}
	case OutInfluxDB2:
		if q.Get("org") == "" || q.Get("bucket") == "" {
			return Output{}, fmt.Errorf("%s: URL %q needs ?org=ORG&bucket=BUCKET, like %s", kind, Redact(addr), outputExample(kind))
		}
	}
	return Output{Kind: kind, URL: addr}, nil
}

// outputExample is a URL of the kind's usual shape, for messages.
func outputExample(kind string) string {
	switch kind {
	case OutInfluxDB:
		return "http://127.0.0.1:8086/write?db=loadlens"
	case OutInfluxDB2:
		return "http://127.0.0.1:8086/api/v2/write?org=ORG&bucket=loadlens"
	case OutOTLP:
		return "http://127.0.0.1:4318/v1/metrics"
	}
	return "http://127.0.0.1:9090/api/v1/write"
}
