package plan

import (
	"testing"
	"time"
)

// TestParseOverride: k6's -u/-d/-i replace every scenario's load and
// start, and the layout names the model run; without them the file's own.
func TestParseOverride(t *testing.T) {
	src := []byte("base_url: http://127.0.0.1:8080\nscenarios:\n  a: {rate: 10, duration: 1h, start_time: 5m, flow: [get: /a]}\n  b: {vus: 9, duration: 2h, flow: [get: /b]}\n")
	for _, tc := range []struct {
		name  string
		ov    LoadOverride
		want  Load
		model string
	}{
		{"iterations", LoadOverride{VUs: 2, Iterations: 7}, Load{Model: Iterations, VUCount: 2, Count: 7, MaxDuration: DefaultMaxDuration}, "iterations"},
		{"iterations within a duration", LoadOverride{Iterations: 7, Duration: time.Minute}, Load{Model: Iterations, VUCount: 1, Count: 7, MaxDuration: time.Minute}, "iterations"},
		{"vus for a duration", LoadOverride{VUs: 3, Duration: 30 * time.Second}, Load{Model: VUs, StartVUs: 3, Stages: []Stage{{Duration: 30 * time.Second, Target: 3}}}, "vus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseOverride(Machine{}, "t.yaml", src, nil, tc.ov)
			if err != nil {
				t.Fatal(err)
			}
			for i, sc := range p.Scenarios {
				if sc.StartTime != 0 || sc.Load.Model != tc.want.Model || sc.Load.VUCount != tc.want.VUCount || sc.Load.Count != tc.want.Count ||
					sc.Load.MaxDuration != tc.want.MaxDuration || sc.Load.StartVUs != tc.want.StartVUs || len(sc.Load.Stages) != len(tc.want.Stages) {
					t.Errorf("scenario %s: load %+v from %v, want %+v from 0", sc.Name, sc.Load, sc.StartTime, tc.want)
				}
				if got := p.Layout.Scenarios[i].Model; got != tc.model {
					t.Errorf("scenario %s: layout model %s, want %s", sc.Name, got, tc.model)
				}
			}
		})
	}
	p, err := ParseOverride(Machine{}, "t.yaml", src, nil, LoadOverride{})
	if err != nil || p.Scenarios[0].Load.Model != ArrivalRate || p.Scenarios[0].StartTime != 5*time.Minute {
		t.Errorf("no override: %+v, %v", p.Scenarios[0], err)
	}
}
