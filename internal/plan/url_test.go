package plan

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

func TestFromURL(t *testing.T) {
	bodyFile := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(bodyFile, []byte(`{"text": "hi"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		o     URLOptions
		check func(t *testing.T, p *Plan)
	}{
		{"defaults: one VU for 10s", URLOptions{URL: "http://127.0.0.1:8080/apps/first-page?page=2"}, func(t *testing.T, p *Plan) {
			want := Load{Model: VUs, StartVUs: 1, Stages: []Stage{{10 * time.Second, 1}}, GracefulRampDown: 30 * time.Second}
			if !reflect.DeepEqual(p.Scenarios[0].Load, want) {
				t.Errorf("load %+v, want %+v", p.Scenarios[0].Load, want)
			}
			if p.Name != "127.0.0.1-8080-apps-first-page" || p.File != "" || p.Timeout != DefaultTimeout {
				t.Errorf("name %q file %q timeout %v", p.Name, p.File, p.Timeout)
			}
			r := req(t, p, 0, 0)
			if r.Method != "GET" || constOf(r.URL) != "http://127.0.0.1:8080/apps/first-page?page=2" || r.Body != nil {
				t.Errorf("request %s %q body %v", r.Method, constOf(r.URL), r.Body)
			}
			if got := p.Layout.Endpoints[0].Name; got != "GET /apps/first-page" {
				t.Errorf("endpoint %q, want GET /apps/first-page", got)
			}
		}},
		{"rate with ramp and max vus", URLOptions{URL: "https://shop.example", Rate: 50.5, Duration: time.Minute, Ramp: 30 * time.Second, MaxVUs: 300, Timeout: 5 * time.Second, Insecure: true, Name: "shop"},
			func(t *testing.T, p *Plan) {
				want := Load{Model: ArrivalRate, StartRate: 0, Stages: []Stage{{30 * time.Second, 50.5}, {time.Minute, 50.5}}, MaxVUs: 300, PreAllocatedVUs: 51, ArrivalSlack: DefaultArrivalSlack}
				if !reflect.DeepEqual(p.Scenarios[0].Load, want) {
					t.Errorf("load %+v, want %+v", p.Scenarios[0].Load, want)
				}
				if p.Name != "shop" || !p.Insecure || p.Timeout != 5*time.Second || constOf(req(t, p, 0, 0).URL) != "https://shop.example/" {
					t.Errorf("name %q insecure %v timeout %v URL %q", p.Name, p.Insecure, p.Timeout, constOf(req(t, p, 0, 0).URL))
				}
			}},
		{"exact spacing", URLOptions{URL: "http://h/x", Rate: 100, ArrivalSlack: ptr(time.Duration(0))}, func(t *testing.T, p *Plan) {
			if got := p.Scenarios[0].Load.ArrivalSlack; got != 0 {
				t.Errorf("arrival slack %v, want 0 (--arrival-slack 0s)", got)
			}
			if !strings.Contains(string(p.Source), "arrival_slack: 0s") {
				t.Errorf("the rendered test file lacks arrival_slack: 0s:\n%s", p.Source)
			}
		}},
		{"constant rate", URLOptions{URL: "http://h/x", Rate: 100}, func(t *testing.T, p *Plan) {
			l := p.Scenarios[0].Load
			if l.StartRate != 100 || !reflect.DeepEqual(l.Stages, []Stage{{10 * time.Second, 100}}) || l.MaxVUs != 6100 { // 100/s × (60s + 1s of slack)
				t.Errorf("load %+v, want 100/s for 10s and max_vus 6100", l)
			}
		}},
		{"vus with ramp", URLOptions{URL: "http://h/x", VUs: 20, Ramp: 10 * time.Second}, func(t *testing.T, p *Plan) {
			want := []Stage{{10 * time.Second, 20}, {10 * time.Second, 20}}
			if l := p.Scenarios[0].Load; l.Model != VUs || l.StartVUs != 0 || !reflect.DeepEqual(l.Stages, want) {
				t.Errorf("load %+v, want 0 → 20 VUs then hold", l)
			}
		}},
		{"body, headers and thresholds", URLOptions{URL: "http://h/feed", BodyFile: bodyFile, Headers: []string{"x-api-key: k:1", "Accept:text/plain"},
			Thresholds: []string{"p(95)<500ms", "rate<0.01", "avg < 200", "checks: rate>0.9", `http_req_duration{endpoint:"POST /feed"}: p(99)<1s`}},
			func(t *testing.T, p *Plan) {
				r := req(t, p, 0, 0)
				if r.Method != "POST" || render(r.Body) != `{"text": "hi"}` || r.BodyKind != RawBody {
					t.Errorf("request %s body %q kind %d", r.Method, render(r.Body), r.BodyKind)
				}
				want := map[string]string{"X-Api-Key": "k:1", "Accept": "text/plain", "Content-Type": "application/json"}
				if got := headerMap(r); !reflect.DeepEqual(got, want) {
					t.Errorf("headers %v, want %v", got, want)
				}
				var got []string
				for _, th := range p.Thresholds {
					got = append(got, th.Key+": "+th.Expr)
				}
				wantTh := []string{"http_req_duration: p(95)<500ms", "http_req_duration: avg < 200", "http_req_failed: rate<0.01",
					"checks: rate>0.9", `http_req_duration{endpoint:"POST /feed"}: p(99)<1s`}
				if !reflect.DeepEqual(got, wantTh) {
					t.Errorf("thresholds %q, want %q", got, wantTh)
				}
			}},
		{"method and templated URL", URLOptions{URL: "http://h/products/{{ randInt(1, 10) }}", Method: "delete", Body: "x=1"}, func(t *testing.T, p *Plan) {
			r := req(t, p, 0, 0)
			if r.Method != "DELETE" || !matches(render(r.URL), `^http://h/products/([1-9]|10)$`) || len(r.Headers) != 0 {
				t.Errorf("request %s %q headers %v", r.Method, render(r.URL), r.Headers)
			}
			if got := p.Layout.Endpoints[0].Name; got != "DELETE /products/{{ randInt(1, 10) }}" {
				t.Errorf("endpoint %q", got)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromURL(tt.o)
			if err != nil {
				t.Fatalf("FromURL: %v", err)
			}
			tt.check(t, p)
			redactHeaders(p) // the stored source holds "[REDACTED]" for literal credentials
			again, err := Parse("", p.Source, nil)
			if err != nil {
				t.Fatalf("parsing the Source again: %v\n%s", err, p.Source)
			}
			if !reflect.DeepEqual(again, p) {
				t.Errorf("parsing the Source again gives a different plan:\n%+v\nwant\n%+v\nsource:\n%s", again, p, p.Source)
			}
		})
	}
}

func TestFromURLRoundTripsAwkwardText(t *testing.T) {
	o := URLOptions{URL: `http://h/a "b"\c`, Body: "line1\nline2\t\"q\" \\ \x01 é", Headers: []string{`X-Q: "quoted" \ back`}, Name: "awkward"}
	p, err := FromURL(o)
	if err != nil {
		t.Fatalf("FromURL: %v", err)
	}
	r := req(t, p, 0, 0)
	if got := render(r.Body); got != o.Body {
		t.Errorf("body %q, want %q", got, o.Body)
	}
	if got := headerMap(r)["X-Q"]; got != `"quoted" \ back` {
		t.Errorf("header %q", got)
	}
	if got, want := constOf(r.URL), `http://h/a%20"b"\c`; got != want { // the space is sent percent-encoded
		t.Errorf("URL %q, want %q", got, want)
	}
}

func TestFromURLErrors(t *testing.T) {
	tests := []struct {
		name string
		o    URLOptions
		want string
	}{
		{"not a URL", URLOptions{URL: "localhost:8080/x"}, `URL: bad URL "localhost:8080/x": expected http:// or https:// and a host, like http://127.0.0.1:8080/path`},
		{"no host", URLOptions{URL: "http:///x"}, `URL: bad URL "http:///x": expected http:// or https:// and a host, like http://127.0.0.1:8080/path`},
		{"port past 65535", URLOptions{URL: "http://127.0.0.1:99999/x"}, `URL: bad URL "http://127.0.0.1:99999/x": the port must be a number from 1 to 65535, not 99999`},
		{"port 0", URLOptions{URL: "https://h:0/"}, `URL: bad URL "https://h:0/": the port must be a number from 1 to 65535, not 0`},
		{"rate and vus", URLOptions{URL: "http://h", Rate: 1, VUs: 1}, "--rate: --rate (an open model: arrivals per second) and --vus (a closed model) exclude each other"},
		{"negative rate", URLOptions{URL: "http://h", Rate: -1}, "--rate: must be a positive number of iterations per second, got -1"},
		{"negative vus", URLOptions{URL: "http://h", VUs: -2}, "--vus: must be a positive number of VUs, got -2"},
		{"max vus without rate", URLOptions{URL: "http://h", MaxVUs: 5}, "--max-vus: applies only with --rate; with --vus the VU count is fixed"},
		{"arrival slack without rate", URLOptions{URL: "http://h", ArrivalSlack: ptr(time.Millisecond)}, "--arrival-slack: applies only with --rate; with --vus each VU starts when its last iteration ended"},
		{"arrival slack too wide", URLOptions{URL: "http://h", Rate: 10, ArrivalSlack: ptr(time.Second)}, "--arrival-slack: must be between 0s and 5ms, got 1s"},
		{"negative duration", URLOptions{URL: "http://h", Duration: -time.Second}, "--duration: must not be negative, got -1s"},
		{"duration past the bound", URLOptions{URL: "http://h", Duration: 2000 * time.Hour},
			"--duration: the scenario would last 2000h (start_time + load + graceful stops): at most 1000h (about 41 days)"},
		{"ramp past the bound", URLOptions{URL: "http://h", Rate: 1, Ramp: 1001 * time.Hour},
			"--ramp: the scenario would last 1001h (start_time + load + graceful stops): at most 1000h (about 41 days)"},
		{"hold after a ramp past the bound", URLOptions{URL: "http://h", Ramp: 2 * time.Hour, Duration: 999 * time.Hour},
			"--duration: the scenario would last 1001h (start_time + load + graceful stops): at most 1000h (about 41 days)"},
		{"graceful stop past the bound", URLOptions{URL: "http://h", Duration: 999 * time.Hour, GracefulStop: ptr(2 * time.Hour)},
			"--graceful-stop: the scenario would last 1001h (start_time + load + graceful stops): at most 1000h (about 41 days)"},
		{"malformed header", URLOptions{URL: "http://h", Headers: []string{"NoColon"}}, `-H: bad header "NoColon": expected "Name: value"`},
		{"header with a bad name", URLOptions{URL: "http://h", Headers: []string{"A B: c"}}, `-H: bad header "A B: c": expected "Name: value"`},
		{"body and body file", URLOptions{URL: "http://h", Body: "x", BodyFile: "testdata/users.csv"}, "--body-file: give --body or --body-file, not both"},
		{"missing body file", URLOptions{URL: "http://h", BodyFile: "testdata/nope.json"}, "--body-file: cannot read body file testdata/nope.json: no such file or directory"},
		{"bad method", URLOptions{URL: "http://h", Method: "GE T"}, `--method: bad HTTP method "GE T"`},
		{"bad threshold", URLOptions{URL: "http://h", Thresholds: []string{"fast please"}}, `--threshold: bad threshold "fast please": expected an expression like "p(95)<500ms" or "metric{filter}: expression"`},
		{"threshold on an unknown endpoint", URLOptions{URL: "http://h/x", Thresholds: []string{`http_req_duration{endpoint:"GET /y"}: p(95)<1s`}},
			`--threshold: unknown endpoint "GET /y"; did you mean "GET /x"? (the test defines: "GET /x")`},
		{"bad threshold expression", URLOptions{URL: "http://h/x", Thresholds: []string{"p(95) < 1x"}}, `--threshold: unknown time unit "x": use us, µs, ms, s, m or h (no unit means ms)`},
		{"bad template in the URL", URLOptions{URL: "http://h/{{ nope }}"}, `URL: unknown variable "nope" (no variables are defined)`},
		{"bad template in a header", URLOptions{URL: "http://h/", Headers: []string{"A: x {{"}}, "-H: unterminated {{: no closing }}"},
		{"bad name", URLOptions{URL: "http://h/", Name: "a b"}, `--name: name "a b" may only use letters, digits, '.', '_' and '-' (it names the run's directory)`},
		{"several errors", URLOptions{URL: "ftp://h", VUs: -1, Headers: []string{"x"}},
			"URL: bad URL \"ftp://h\": expected http:// or https:// and a host, like http://127.0.0.1:8080/path\n--vus: must be a positive number of VUs, got -1\n-H: bad header \"x\": expected \"Name: value\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := FromURL(tt.o)
			if err == nil {
				t.Fatalf("FromURL succeeded, want error %q\n%s", tt.want, p.Source)
			}
			if _, ok := err.(yamldoc.Errors); !ok {
				t.Errorf("error is %T, want Errors", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error\n%s\nwant\n%s", got, tt.want)
			}
			if strings.Contains(err.Error(), "scenarios.") {
				t.Error("error names a test-file field instead of a flag")
			}
		})
	}
}

// TestFromURLSource pins the test file URL mode writes; docs/test-format.md
// shows this example.
func TestFromURLSource(t *testing.T) {
	p, err := FromURL(URLOptions{URL: "http://127.0.0.1:8080/apps/first-page", Rate: 50, Ramp: 30 * time.Second,
		Duration: 2 * time.Minute, Thresholds: []string{"p(95)<500ms"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `# loadlens run URL flags, as a test file
name: "127.0.0.1-8080-apps-first-page"
base_url: "http://127.0.0.1:8080"
thresholds:
  "http_req_duration":
    - "p(95)<500ms"
scenarios:
  default:
    model: arrival-rate
    start_rate: 0
    stages:
      - {duration: 30s, target: 50}
      - {duration: 2m0s, target: 50}
    graceful_stop: 5s
    flow:
      - method: "GET"
        path: "/apps/first-page"
`
	if got := string(p.Source); got != want {
		t.Errorf("source:\n%s\nwant:\n%s", got, want)
	}
}

// redactHeaders replaces the values of p's headers that hold a literal
// credential with Redacted, as parsing its stored source gives them.
func redactHeaders(p *Plan) {
	redact := func(hs []Header) {
		for i, h := range hs {
			if SecretHeader(h.Name) && literalSecret(h.Value.String()) {
				hs[i].Value = tmpl.Literal(Redacted)
			}
		}
	}
	redact(p.Headers)
	for _, s := range p.Scenarios {
		for _, st := range s.Flow {
			if st.Request != nil {
				redact(st.Request.Headers)
			}
		}
	}
}

// ptr returns a pointer to v, for the options that tell unset from zero.
func ptr[T any](v T) *T { return &v }
