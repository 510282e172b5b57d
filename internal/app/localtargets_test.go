package app

import (
	"slices"
	"testing"

	"github.com/loadlens/loadlens/internal/report"
)

// TestLocalTargets checks which scraped targets are on loadlens's host:
// those scraped on a loopback address, none in a distributed run.
func TestLocalTargets(t *testing.T) {
	const test = `name: t
base_url: http://127.0.0.1:8080
scenarios:
  s:
    vus: 1
    duration: 1s
    flow:
      - get: /
observe:
  targets:
    - {name: app, url: "http://127.0.0.1:9100/metrics", preset: go}
    - {name: v6, url: "http://[::1]:9101/metrics"}
    - {name: named, url: "http://localhost:9102/metrics"}
    - {name: db, url: "http://10.0.0.5:9187/metrics"}
    - {name: remote, url: "http://db.example.com:9100/metrics"}
`
	cases := []struct {
		name   string
		source string
		agents []report.Agent
		want   []string
	}{
		{"loopback addresses and localhost", test, nil, []string{"app", "v6", "named"}},
		{"a distributed run: the host readings are not the targets'", test, []report.Agent{{}}, nil},
		{"no test source (an old run.db)", "", nil, nil},
		{"a test that does not parse", "scenarios: [", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := &report.Input{TestFile: "t.yaml", TestSource: []byte(tc.source), Agents: tc.agents}
			if got := localTargets(in); !slices.Equal(got, tc.want) {
				t.Errorf("localTargets = %q, want %q", got, tc.want)
			}
		})
	}
}
