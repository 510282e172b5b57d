package plan

import (
	"strings"
	"testing"
)

// laptop is a machine with 4 GiB available (98,304 VUs), 100,000 open
// files and 2 cores (300,000 requests/s).
var laptop = Machine{MemAvailable: 4 << 30, OpenFiles: 100000, CPUs: 2}

// scenario returns a test file with one scenario of the given keys and a
// flow of one request.
func scenario(keys string) string {
	return "base_url: http://h\nscenarios:\n  s:\n" + keys + "    flow: [get: /x]\n"
}

func TestParseForRefusesWhatTheMachineCannotDo(t *testing.T) {
	const mem = "this machine has 4.0 GiB available, and about 98,304 VUs fit in three quarters of it"
	const cpu = "this machine can send: one process sends at most about 300,000 requests/s here (150,000 per core × 2 cores); split the load over several machines with run --agents (or k8s run), which gives each its share"
	tests := []struct {
		name    string
		machine Machine
		src     string
		want    string
	}{
		{"vus", laptop, scenario("    vus: 100000000\n    duration: 1m\n"),
			"4:10: scenarios.s.vus: 100,000,000 VUs need about 3.0 TiB of memory at 32 KiB each; " + mem},
		{"rate", laptop, scenario("    rate: 1e18\n    duration: 1m\n"),
			"4:11: scenarios.s.rate: 1e+18 iterations/s (1 request each) is more than " + cpu},
		{"rate of a longer flow", laptop, "base_url: http://h\nscenarios:\n  s:\n    rate: 100000\n    duration: 1m\n    max_vus: 10\n    flow: [get: /a, get: /b, think: 1s, get: /c, get: /d]\n",
			"4:11: scenarios.s.rate: 100,000 iterations/s (4 requests each) is more than " + cpu},
		{"rate per minute", laptop, scenario("    rate: 60000000\n    time_unit: 1m\n    duration: 1m\n    max_vus: 10\n"),
			"4:11: scenarios.s.rate: 1,000,000 iterations/s (1 request each) is more than " + cpu},
		{"peak stage", laptop, scenario("    start_vus: 10\n    stages:\n      - {duration: 1m, target: 200000}\n      - {duration: 1m, target: 5}\n"),
			"6:32: scenarios.s.stages[0].target: 200,000 VUs need about 6.1 GiB of memory at 32 KiB each; " + mem},
		{"max_vus", laptop, scenario("    rate: 10\n    duration: 1m\n    max_vus: 1000000\n"),
			"6:14: scenarios.s.max_vus: 1,000,000 VUs (max_vus) need about 30.5 GiB of memory at 32 KiB each; " + mem},
		{"pre_allocated_vus", laptop, scenario("    rate: 10\n    duration: 1m\n    pre_allocated_vus: 100000\n"),
			"6:24: scenarios.s.pre_allocated_vus: 100,000 pre-allocated VUs need about 3.1 GiB of memory at 32 KiB each; " + mem},
		{"iterations", laptop, scenario("    vus: 100000\n    iterations: 1000000\n"),
			"4:10: scenarios.s.vus: 100,000 VUs need about 3.1 GiB of memory at 32 KiB each; " + mem},
		{"open files", Machine{MemAvailable: 64 << 30, OpenFiles: 1024}, scenario("    vus: 2000\n    duration: 1m\n"),
			"4:10: scenarios.s.vus: 2,000 VUs hold 2,000 connections, each an open file, and this process may open 1,024 files (ulimit -n): at most 960 VUs; raise ulimit -n or split the load with run --agents"},
		{"scenarios together", laptop, "base_url: http://h\nscenarios:\n  a: {vus: 60000, duration: 1m, flow: [get: /x]}\n  b: {vus: 60000, duration: 1m, flow: [get: /x]}\n",
			"2:1: scenarios: 120,000 VUs (all scenarios together) need about 3.7 GiB of memory at 32 KiB each; " + mem},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFor(tt.machine, "t.yaml", []byte(tt.src), nil)
			if want := "t.yaml:" + tt.want; err == nil || err.Error() != want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, want)
			}
			if _, err := Parse("t.yaml", []byte(tt.src), nil); err != nil {
				t.Errorf("without a machine to check against: %v", err)
			}
		})
	}
}

func TestParseForAcceptsWhatTheMachineCanDo(t *testing.T) {
	tests := []struct {
		name    string
		machine Machine
		src     string
		check   func(t *testing.T, p *Plan)
	}{
		{"at the VU bound", laptop, scenario("    vus: 98304\n    duration: 1m\n"), nil},
		{"at the rate bound", laptop, scenario("    rate: 300000\n    duration: 1m\n    max_vus: 100\n"), nil},
		{"a quarter of the test", Machine{MemAvailable: 4 << 30, CPUs: 2, Share: 0.25}, scenario("    vus: 300000\n    duration: 1m\n"), nil},
		{"an unknown machine", Machine{}, scenario("    vus: 100000000\n    duration: 1m\n"), nil},
		{"a default max_vus within memory", Machine{MemAvailable: 64 << 20}, scenario("    rate: 2000\n    duration: 1m\n"), func(t *testing.T, p *Plan) {
			// 2,000/s × the 60 s timeout would be 100,000 (the cap); 64 MiB holds 1,536.
			if l := p.Scenarios[0].Load; l.MaxVUs != 1536 || l.PreAllocatedVUs != 1536 {
				t.Errorf("max_vus %d, pre-allocated %d; want both 1536", l.MaxVUs, l.PreAllocatedVUs)
			}
		}},
		{"default max_vus share what is left", Machine{MemAvailable: 64 << 20}, "base_url: http://h\nscenarios:\n" +
			"  a: {rate: 100, duration: 1m, flow: [get: /x]}\n  b: {rate: 100, duration: 1m, flow: [get: /x]}\n  c: {vus: 536, duration: 1m, flow: [get: /x]}\n", func(t *testing.T, p *Plan) {
			// 1,536 VUs fit: 536 for c, 500 each for a and b.
			for _, s := range p.Scenarios[:2] {
				if s.Load.MaxVUs != 500 {
					t.Errorf("%s: max_vus %d, want 500", s.Name, s.Load.MaxVUs)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFor(tt.machine, "t.yaml", []byte(tt.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 100000000: "100,000,000", -1234: "-1,234"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
	if s := bytesText(3 << 40); !strings.HasPrefix(s, "3.0 TiB") {
		t.Errorf("bytesText(3 TiB) = %q", s)
	}
}
