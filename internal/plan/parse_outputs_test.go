package plan

import (
	"slices"
	"strings"
	"testing"
)

func TestParseOutputs(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []Output
		err  string // the whole error text when the file is bad
	}{
		{"none", "", nil, ""},
		{"every kind", `outputs:
  - prometheus-rw=http://127.0.0.1:9090/api/v1/write
  - influxdb=http://127.0.0.1:8086/write?db=k6
  - influxdb2=http://127.0.0.1:8086/api/v2/write?org=o&bucket=b
  - otlp=http://127.0.0.1:4318/v1/metrics
`, []Output{{OutPrometheusRW, "http://127.0.0.1:9090/api/v1/write"}, {OutInfluxDB, "http://127.0.0.1:8086/write?db=k6"},
			{OutInfluxDB2, "http://127.0.0.1:8086/api/v2/write?org=o&bucket=b"}, {OutOTLP, "http://127.0.0.1:4318/v1/metrics"}}, ""},
		{"unknown kind", "outputs:\n  - statsd=http://127.0.0.1:8125\n", nil,
			`9:5: outputs[0]: unknown output kind "statsd": want one of prometheus-rw, influxdb, influxdb2, otlp`},
		{"no kind", "outputs:\n  - http://127.0.0.1:9090/api/v1/write\n", nil,
			`9:5: outputs[0]: "http://127.0.0.1:9090/api/v1/write": want KIND=URL, e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write (kinds: prometheus-rw, influxdb, influxdb2, otlp)`},
		{"bad url", "outputs:\n  - otlp=127.0.0.1:4318\n", nil,
			`9:5: outputs[0]: otlp: bad URL "127.0.0.1:4318": expected http:// or https:// and a host, like http://127.0.0.1:4318/v1/metrics`},
		{"influxdb without db", "outputs:\n  - influxdb=http://127.0.0.1:8086/write\n", nil,
			`9:5: outputs[0]: influxdb: URL "http://127.0.0.1:8086/write" names no database: add ?db=NAME, like http://127.0.0.1:8086/write?db=loadlens`},
		{"influxdb2 without bucket", "outputs:\n  - influxdb2=http://127.0.0.1:8086/api/v2/write?org=o\n", nil,
			`9:5: outputs[0]: influxdb2: URL "http://127.0.0.1:8086/api/v2/write?org=o" needs ?org=ORG&bucket=BUCKET, like http://127.0.0.1:8086/api/v2/write?org=ORG&bucket=loadlens`},
		{"not a list", "outputs: prometheus-rw=http://127.0.0.1:9090/api/v1/write\n", nil, "8:10: outputs: expected a list of KIND=URL strings"},
		{"second item bad", "outputs:\n  - otlp=http://127.0.0.1:4318/v1/metrics\n  - {kind: otlp}\n", nil, "10:5: outputs[1]: expected a KIND=URL string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + getX + tt.yaml
			p, err := Parse("t.yaml", []byte(src), noEnv)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Outputs, tt.want) {
				t.Errorf("outputs = %v, want %v", p.Outputs, tt.want)
			}
		})
	}
}
