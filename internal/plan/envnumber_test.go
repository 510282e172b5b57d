package plan

import (
	"strings"
	"testing"
)

// TestEnvNumbers: a number may come from the environment where a duration
// may (rate, VUs, iterations, stage targets, sizes), so that one file runs
// small in CI and at full load by hand; a bad rendered value is an error
// naming the file, line and field, and what it rendered from.
func TestEnvNumbers(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"RATE": "50", "VUS": " 7 ", "BAD": "lots", "NEG": "-2", "FRAC": "2.5",
			"HUGE": "1e999", "ZERO": "0", "BODY": "2MiB", "BIG": "1e12"}[k]
		return v, ok
	}
	arrival := func(keys string) string {
		return "base_url: http://127.0.0.1:8080\nscenarios:\n  s:\n" + keys + "    flow: [get: /x]\n"
	}
	tests := []struct {
		name    string
		src     string
		check   func(*Plan) any // what the plan holds, compared with want
		want    any
		wantErr string
	}{
		{"rate", arrival("    rate: '{{ env.RATE }}'\n    duration: 1s\n"), stage0, 50.0, ""},
		{"rate: its default", arrival("    rate: '{{ env(\"UNSET\", \"25\") }}'\n    duration: 1s\n"), stage0, 25.0, ""},
		{"rate with text around", arrival("    rate: '1{{ env(\"UNSET\", \"0\") }}'\n    duration: 1s\n"), stage0, 10.0, ""},
		{"start_rate and a target", arrival("    start_rate: '{{ env.RATE }}'\n    stages: [{duration: 1s, target: '{{ env.VUS }}'}]\n"),
			func(p *Plan) any {
				return [2]float64{p.Scenarios[0].Load.StartRate, p.Scenarios[0].Load.Stages[0].Target}
			}, [2]float64{50, 7}, ""},
		{"max_vus and pre_allocated_vus", arrival("    rate: 5\n    duration: 1s\n    max_vus: '{{ env.RATE }}'\n    pre_allocated_vus: '{{ env.VUS }}'\n"),
			func(p *Plan) any { return [2]int{p.Scenarios[0].Load.MaxVUs, p.Scenarios[0].Load.PreAllocatedVUs} }, [2]int{50, 7}, ""},
		{"vus", arrival("    vus: '{{ env.VUS }}'\n    duration: 1s\n"), stage0, 7.0, ""},
		{"iterations", arrival("    vus: 1\n    iterations: '{{ env.RATE }}'\n"),
			func(p *Plan) any { return p.Scenarios[0].Load.Count }, int64(50), ""},
		{"a check's number", strings.Replace(arrival("    rate: 1\n    duration: 1s\n"), "[get: /x]", "[{get: /x, check: [{json: $.n, lt: '{{ env.RATE }}'}]}]", 1),
			func(p *Plan) any { c := p.Scenarios[0].Flow[0].Request.Checks[0]; return c.Values[0] + "; " + c.Name }, "50; $.n < {{ env.RATE }}", ""}, // the name shows the template as written, so a threshold finds the check whatever it renders
		{"max_body", "max_body: '{{ env.BODY }}'\n" + arrival("    rate: 1\n    duration: 1s\n"),
			func(p *Plan) any { return p.Scenarios[0].Flow[0].Request.MaxBody }, int64(2 << 20), ""},

		{"rate unset", arrival("    rate: '{{ env.UNSET }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:15: scenarios.s.rate: environment variable UNSET is not set"},
		{"rate not a number", arrival("    rate: '{{ env.BAD }}'\n    duration: 1s\n"), nil, nil,
			`t.yaml:4:11: scenarios.s.rate: bad number "lots" from {{ env.BAD }}: expected a number`},
		{"rate negative", arrival("    rate: '{{ env.NEG }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:11: scenarios.s.rate: must not be negative, got -2 from {{ env.NEG }}"},
		{"rate too large", arrival("    rate: '{{ env.HUGE }}'\n    duration: 1s\n"), nil, nil,
			`t.yaml:4:11: scenarios.s.rate: number "1e999" from {{ env.HUGE }} is too large`},
		{"rate 0", arrival("    rate: '{{ env.ZERO }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:11: scenarios.s.rate: must be greater than 0"},
		{"rate per request", arrival("    rate: '{{ randInt(1, 9) }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:11: scenarios.s.rate: a number is fixed for the whole run: only env lookups may be templated"},
		{"vus not whole", arrival("    vus: '{{ env.FRAC }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:10: scenarios.s.vus: expected a whole number, got 2.5 from {{ env.FRAC }}"},
		{"vus too many", arrival("    vus: '{{ env.BIG }}'\n    duration: 1s\n"), nil, nil,
			"t.yaml:4:10: scenarios.s.vus: number 1000000000000 from {{ env.BIG }} is too large (at most 2147483648)"},
		{"iterations 0", arrival("    vus: 1\n    iterations: '{{ env.ZERO }}'\n"), nil, nil,
			"t.yaml:5:17: scenarios.s.iterations: must be at least 1, got 0 from {{ env.ZERO }}"},
		{"a target not a number", arrival("    start_rate: 1\n    stages: [{duration: 1s, target: '{{ env.BAD }}'}]\n"), nil, nil,
			`t.yaml:5:37: scenarios.s.stages[0].target: bad number "lots" from {{ env.BAD }}: expected a number`},
		{"max_body not a size", "max_body: '{{ env.BAD }}'\n" + arrival("    rate: 1\n    duration: 1s\n"), nil, nil,
			`t.yaml:1:11: max_body: bad size "lots" from {{ env.BAD }}: write bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src), env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.check(p); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// stage0 is the first stage's level: a rate per second or a VU count.
func stage0(p *Plan) any { return p.Scenarios[0].Load.Stages[0].Target }
