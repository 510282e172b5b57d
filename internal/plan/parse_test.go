package plan

import (
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// render renders t with vars, for asserting what a template produces.
func render(t *tmpl.Template, vars ...string) string {
	return string(t.Render(nil, &tmpl.Context{Vars: vars, VU: 7, Iteration: 3, Scenario: "s"}))
}

// constOf returns a template's constant value, or "<dynamic>".
func constOf(t *tmpl.Template) string {
	if c, ok := t.Const(); ok {
		return c
	}
	return "<dynamic>"
}

// req returns the request of scenario s's step i, failing when it is not one.
func req(t *testing.T, p *Plan, s, i int) *Request {
	t.Helper()
	st := p.Scenarios[s].Flow[i]
	if st.Kind != RequestStep || st.Request == nil {
		t.Fatalf("scenario %d step %d is not a request", s, i)
	}
	return st.Request
}

// headerMap returns a request's headers rendered with vars.
func headerMap(r *Request, vars ...string) map[string]string {
	m := map[string]string{}
	for _, h := range r.Headers {
		m[h.Name] = render(h.Value, vars...)
	}
	return m
}

// validCase is a test file that must parse, and what to assert on its plan.
type validCase struct {
	name  string
	file  string // "t.yaml" stands for testdata/t.yaml, where CSV paths resolve
	src   string
	check func(t *testing.T, p *Plan)
}

// testEnv is the environment valid cases parse with.
func testEnv(k string) (string, bool) {
	if k == "TOKEN" {
		return "s3cret", true
	}
	return "", false
}

// runValid parses each case and runs its assertions.
func runValid(t *testing.T, tests []validCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "t.yaml" {
				file = "testdata/t.yaml"
			}
			p, err := Parse(file, []byte(tt.src), testEnv)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if string(p.Source) != tt.src {
				t.Error("Source is not the file's text")
			}
			tt.check(t, p)
		})
	}
}

// matches reports whether s matches the regular expression re.
func matches(s, re string) bool {
	return regexp.MustCompile(re).MatchString(s)
}

func TestParseLoads(t *testing.T) {
	runValid(t, []validCase{
		{"arrival-rate shorthand and defaults", "tests/first page.yaml", `
base_url: http://127.0.0.1:8080/
scenarios:
  browse:
    rate: 100
    duration: 10m
    flow:
      - get: /apps/first-page
      - think: 1s..3s
      - get: /x
        timeout: 5s
`, func(t *testing.T, p *Plan) {
			if p.Name != "first-page" || p.Timeout != 60*time.Second || p.File != "tests/first page.yaml" {
				t.Errorf("name %q timeout %v file %q, want first-page, 60s and the file", p.Name, p.Timeout, p.File)
			}
			s := p.Scenarios[0]
			want := Load{Model: ArrivalRate, StartRate: 100, Stages: []Stage{{10 * time.Minute, 100}},
				MaxVUs: 6900, PreAllocatedVUs: 100, ArrivalSlack: DefaultArrivalSlack} // 100/s × (60s + 3s + 5s + 1s of slack)
			if !reflect.DeepEqual(s.Load, want) {
				t.Errorf("load %+v, want %+v", s.Load, want)
			}
			if s.GracefulStop != 30*time.Second || s.StartTime != 0 {
				t.Errorf("graceful stop %v start %v, want 30s and 0", s.GracefulStop, s.StartTime)
			}
			if st := s.Flow[1]; st.Kind != ThinkStep || st.ThinkMin != time.Second || st.ThinkMax != 3*time.Second {
				t.Errorf("think step %+v, want 1s..3s", st)
			}
			if got := constOf(req(t, p, 0, 0).URL); got != "http://127.0.0.1:8080/apps/first-page" {
				t.Errorf("URL %q", got)
			}
		}},
		{"rates per time unit and stages", "t.yaml", `
base_url: http://h
scenarios:
  s:
    start_rate: 30
    time_unit: 1m
    stages:
      - {duration: 1m, target: 600}
      - {duration: 9m, target: 600}
    pre_allocated_vus: 5
    flow: [get: /x]
`, func(t *testing.T, p *Plan) {
			l := p.Scenarios[0].Load
			want := []Stage{{time.Minute, 10}, {9 * time.Minute, 10}}
			if l.StartRate != 0.5 || !reflect.DeepEqual(l.Stages, want) {
				t.Errorf("start %v stages %+v, want 0.5/s and %+v", l.StartRate, l.Stages, want)
			}
			if l.MaxVUs != 610 || l.PreAllocatedVUs != 5 { // 10/s × (60s + 1s of slack)
				t.Errorf("max %d pre %d, want 610 and 5", l.MaxVUs, l.PreAllocatedVUs)
			}
		}},
		{"max vus default is clamped", "t.yaml", `
base_url: http://h
timeout: 1h
scenarios:
  s: {rate: 1000, duration: 1m, flow: [get: /x]}
`, func(t *testing.T, p *Plan) {
			if l := p.Scenarios[0].Load; l.MaxVUs != 100000 || l.PreAllocatedVUs != 1000 {
				t.Errorf("max %d pre %d, want 100000 and 1000", l.MaxVUs, l.PreAllocatedVUs)
			}
		}},
		{"pre-allocated above the default max raises it", "t.yaml", `
base_url: http://h
timeout: 1s
scenarios:
  s: {rate: 2, duration: 1m, pre_allocated_vus: 50, flow: [get: /x]}
`, func(t *testing.T, p *Plan) {
			if l := p.Scenarios[0].Load; l.MaxVUs != 50 || l.PreAllocatedVUs != 50 {
				t.Errorf("max %d pre %d, want 50 and 50", l.MaxVUs, l.PreAllocatedVUs)
			}
		}},
		{"vus shorthand, stages and iterations", "t.yaml", `
base_url: http://h
scenarios:
  readers: {vus: 150, duration: 30m, graceful_ramp_down: 10s, flow: [get: /feed]}
  writers:
    start_vus: 5
    stages: [{duration: 1m, target: 150}, {duration: 0s, target: 0}]
    start_time: 1m
    graceful_stop: 0s
    flow: [post: /feed]
  smoke: {vus: 2, iterations: 10, flow: [get: /]}
  once: {model: iterations, iterations: 1, max_duration: 30s, flow: [get: /]}
`, func(t *testing.T, p *Plan) {
			got := []Load{p.Scenarios[0].Load, p.Scenarios[1].Load, p.Scenarios[2].Load, p.Scenarios[3].Load}
			want := []Load{
				{Model: VUs, StartVUs: 150, Stages: []Stage{{30 * time.Minute, 150}}, GracefulRampDown: 10 * time.Second},
				{Model: VUs, StartVUs: 5, Stages: []Stage{{time.Minute, 150}, {0, 0}}, GracefulRampDown: 30 * time.Second},
				{Model: Iterations, VUCount: 2, Count: 10, MaxDuration: 10 * time.Minute},
				{Model: Iterations, VUCount: 1, Count: 1, MaxDuration: 30 * time.Second},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("loads\n%+v\nwant\n%+v", got, want)
			}
			if s := p.Scenarios[1]; s.StartTime != time.Minute || s.GracefulStop != 0 {
				t.Errorf("writers start %v graceful stop %v, want 1m and 0", s.StartTime, s.GracefulStop)
			}
			wantScenarios := []sample.ScenarioInfo{{Name: "readers", Model: "vus"}, {Name: "writers", Model: "vus"}, {Name: "smoke", Model: "iterations"}, {Name: "once", Model: "iterations"}}
			if !reflect.DeepEqual(p.Layout.Scenarios, wantScenarios) {
				t.Errorf("layout scenarios %+v, want %+v", p.Layout.Scenarios, wantScenarios)
			}
		}},
		{"anchors, aliases and merge keys", "t.yaml", `
name: merged
base_url: http://h
x-load: &load {vus: 3, duration: 1m}
x-step: &step
  get: /x
  check: [{status: 200}]
scenarios:
  a:
    <<: *load
    flow: [*step, {<<: *step, name: /y}]
  b:
    <<: [*load, {graceful_stop: 5s}]
    vus: 4
    flow: [*step]
`, func(t *testing.T, p *Plan) {
			a, b := p.Scenarios[0], p.Scenarios[1]
			if a.Load.StartVUs != 3 || b.Load.StartVUs != 4 || b.GracefulStop != 5*time.Second {
				t.Errorf("a vus %d, b vus %d stop %v; want 3, 4 and 5s", a.Load.StartVUs, b.Load.StartVUs, b.GracefulStop)
			}
			names := []string{p.Layout.Endpoints[0].Name, p.Layout.Endpoints[1].Name, p.Layout.Endpoints[2].Name}
			if !reflect.DeepEqual(names, []string{"GET /x", "GET /y", "GET /x"}) || len(p.Layout.Checks) != 3 {
				t.Errorf("endpoints %v and %d checks, want GET /x, GET /y, GET /x and 3", names, len(p.Layout.Checks))
			}
		}},
		{"think forms and tags", "t.yaml", `
base_url: http://h
scenarios:
  s:
    vus: 1
    duration: 1s
    flow:
      - get: /x
        name: !!str 123
      - think: 500ms
      - think: {min: 1s, max: 2s}
      - think: 0
`, func(t *testing.T, p *Plan) {
			var got [][2]time.Duration
			for _, st := range p.Scenarios[0].Flow[1:] {
				got = append(got, [2]time.Duration{st.ThinkMin, st.ThinkMax})
			}
			want := [][2]time.Duration{{500 * time.Millisecond, 500 * time.Millisecond}, {time.Second, 2 * time.Second}, {0, 0}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("thinks %v, want %v", got, want)
			}
			if n := p.Layout.Endpoints[0].Name; n != "GET 123" {
				t.Errorf("endpoint %q, want GET 123", n)
			}
		}},
	})
}
