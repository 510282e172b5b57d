package plan

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

func TestParseRequests(t *testing.T) {
	runValid(t, []validCase{
		{"endpoint and check ids", "t.yaml", `
base_url: http://h
scenarios:
  a:
    vus: 1
    duration: 1s
    flow:
      - get: /p/{{ randInt(1, 9) }}
        name: /p/{id}
        check: [{status: 200}]
      - get: /p/1?full=1
        name: /p/{id}
        check: [{status: 200}, {status: [200, 201]}]
      - post: /p/{id}
        check: {status: 201}
  b:
    vus: 1
    duration: 1s
    flow:
      - get: /p/2?x=1
        check: [{status: 200}]
`, func(t *testing.T, p *Plan) {
			wantEndpoints := []sample.EndpointInfo{
				{Scenario: 0, Name: "GET /p/{id}", Method: "GET"},
				{Scenario: 0, Name: "POST /p/{id}", Method: "POST"},
				{Scenario: 1, Name: "GET /p/2", Method: "GET"},
			}
			wantChecks := []sample.CheckInfo{
				{Scenario: 0, Endpoint: 0, Name: "status is 200"},
				{Scenario: 0, Endpoint: 0, Name: "status in [200, 201]"},
				{Scenario: 0, Endpoint: 1, Name: "status is 201"},
				{Scenario: 1, Endpoint: 2, Name: "status is 200"},
			}
			if !reflect.DeepEqual(p.Layout.Endpoints, wantEndpoints) || !reflect.DeepEqual(p.Layout.Checks, wantChecks) {
				t.Errorf("layout %+v\nwant endpoints %+v\nchecks %+v", p.Layout, wantEndpoints, wantChecks)
			}
			ids := []int32{req(t, p, 0, 0).Endpoint, req(t, p, 0, 1).Endpoint, req(t, p, 0, 2).Endpoint, req(t, p, 1, 0).Endpoint}
			if !reflect.DeepEqual(ids, []int32{0, 0, 1, 2}) {
				t.Errorf("endpoint ids %v, want [0 0 1 2]", ids)
			}
			checkIDs := []int32{req(t, p, 0, 0).Checks[0].ID, req(t, p, 0, 1).Checks[0].ID, req(t, p, 0, 1).Checks[1].ID, req(t, p, 1, 0).Checks[0].ID}
			if !reflect.DeepEqual(checkIDs, []int32{0, 0, 1, 3}) {
				t.Errorf("check ids %v, want [0 0 1 3]", checkIDs)
			}
		}},
		{"urls with base, query and absolute paths", "t.yaml", `
base_url: http://h:8080/api
scenarios:
  s:
    vus: 1
    duration: 1s
    data: users.csv
    flow:
      - get: /apps/{{ pick("GAME", "EDU") }}
        query: {sort: rating, page: "{{ randInt(1, 5) }}", q: "a b&c", tag: [x, "{{ user }}"]}
      - get: items?x=1
        query: {y: 2}
      - get: https://other.example/v1/{{ user }}
      - delete: /u/{{ env.TOKEN }}
`, func(t *testing.T, p *Plan) {
			u := req(t, p, 0, 0).URL
			if got, want := u.String(), `http://h:8080/api/apps/{{ pick("GAME", "EDU") }}?sort=rating&page={{ randInt(1, 5) }}&q=a+b%26c&tag=x&tag={{ user }}`; got != want {
				t.Errorf("URL source %q, want %q", got, want)
			}
			if got := render(req(t, p, 0, 0).URL, "a&b", "pw"); !matches(got, `^http://h:8080/api/apps/(GAME|EDU)\?sort=rating&page=[1-5]&q=a\+b%26c&tag=x&tag=a%26b$`) {
				t.Errorf("rendered URL %q", got)
			}
			if got := constOf(req(t, p, 0, 1).URL); got != "http://h:8080/api/items?x=1&y=2" {
				t.Errorf("URL %q", got)
			}
			if got := render(req(t, p, 0, 2).URL, "bob"); got != "https://other.example/v1/bob" {
				t.Errorf("absolute URL rendered %q", got)
			}
			if got := constOf(req(t, p, 0, 3).URL); got != "http://h:8080/api/u/s3cret" {
				t.Errorf("URL with env %q", got)
			}
			wantNames := []string{`GET /apps/{{ pick("GAME", "EDU") }}`, "GET items", "GET https://other.example/v1/{{ user }}", "DELETE /u/{{ env.TOKEN }}"}
			for i, w := range wantNames {
				if got := p.Layout.Endpoints[i].Name; got != w {
					t.Errorf("endpoint %d name %q, want %q", i, got, w)
				}
			}
		}},
		{"bodies and headers", "t.yaml", `
base_url: http://h
headers: {accept: application/json, x-trace: "{{ uuid() }}", Content-Type: text/plain}
scenarios:
  s:
    vus: 1
    duration: 1s
    data: {file: users.csv, mode: unique, on_exhausted: fail}
    flow:
      - post: /orders
        json: {product: "{{ user }}", qty: 1, price: 0x10, ok: true, none: null, tags: [a, 2.5], "quote\"d": "x\ny"}
        headers: {X-TRACE: fixed, content-type: application/json; charset=utf-8}
      - put: /form
        form: {a: "{{ password }}", b: "x y"}
      - patch: /raw
        body: "raw {{ vu }}"
        headers: {Authorization: "Bearer {{ env(\"TOKEN\") }}"}
      - method: purge
        path: /cache
`, func(t *testing.T, p *Plan) {
			d := p.Scenarios[0].Data
			if d.Mode != Unique || d.StopOnEmpty || !reflect.DeepEqual(d.Columns, []string{"user", "password"}) || len(d.Rows) != 2 || d.File != "users.csv" {
				t.Errorf("data %+v", d)
			}
			r := req(t, p, 0, 0)
			if got, want := render(r.Body, `a"b`, ""), `{"product":"a\"b","qty":1,"price":16,"ok":true,"none":null,"tags":["a",2.5],"quote\"d":"x\ny"}`; got != want || r.BodyKind != JSONBody {
				t.Errorf("json body %s (kind %d), want %s", got, r.BodyKind, want)
			}
			if got, want := headerMap(r), map[string]string{"Accept": "application/json", "X-Trace": "fixed", "Content-Type": "application/json; charset=utf-8"}; !reflect.DeepEqual(got, want) {
				t.Errorf("headers %v, want %v", got, want)
			}
			r = req(t, p, 0, 1)
			if got := render(r.Body, "", "p&w=1"); got != "a=p%26w%3D1&b=x+y" || r.BodyKind != FormBody || r.Method != "PUT" {
				t.Errorf("form body %q kind %d method %s", got, r.BodyKind, r.Method)
			}
			if got := headerMap(r)["Content-Type"]; got != "text/plain" {
				t.Errorf("form Content-Type %q, want the default header's text/plain", got)
			}
			r = req(t, p, 0, 2)
			if got := render(r.Body); got != "raw 7" || r.BodyKind != RawBody {
				t.Errorf("raw body %q kind %d", got, r.BodyKind)
			}
			if got := headerMap(r)["Authorization"]; got != "Bearer s3cret" {
				t.Errorf("Authorization %q", got)
			}
			if r := req(t, p, 0, 3); r.Method != "PURGE" || r.Body != nil || r.BodyKind != NoBody {
				t.Errorf("method %s body %v kind %d", r.Method, r.Body, r.BodyKind)
			}
			if len(p.Headers) != 3 || p.Headers[0].Name != "Accept" {
				t.Errorf("plan headers %+v", p.Headers)
			}
		}},
		{"checks and their default names", "t.yaml", `
base_url: http://h
scenarios:
  s:
    vus: 1
    duration: 1s
    flow:
      - get: /x
        check:
          - status: 200
          - status: [200, 201]
          - body_contains: ok
          - body_matches: '"id":\s*\d+'
          - json: $.a
            eq: 1
          - json: $.a
            ne: "x"
          - json: $.remaining
            gte: 0
          - json: $.a
            lt: 2.5
          - json: $.a
            exists: true
          - json: $.a
            exists: false
          - json: $.a
            contains: x
          - json: $.a
            matches: ^a+$
          - json: $.a
            eq: null
          - header: content-type
            contains: json
          - name: remaining never negative
            json: $.remaining
            gte: 0
`, func(t *testing.T, p *Plan) {
			r := req(t, p, 0, 0)
			want := []string{"status is 200", "status in [200, 201]", `body contains "ok"`, `body matches /"id":\s*\d+/`,
				"$.a == 1", `$.a != "x"`, "$.remaining >= 0", "$.a < 2.5", "$.a exists", "$.a does not exist",
				`$.a contains "x"`, "$.a matches /^a+$/", "$.a == null", `header Content-Type contains "json"`, "remaining never negative"}
			var got []string
			for _, c := range r.Checks {
				got = append(got, c.Name)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("check names\n%q\nwant\n%q", got, want)
			}
			c := r.Checks[13]
			if c.From != FromHeader || c.Header != "Content-Type" || c.Op != OpContains || !reflect.DeepEqual(c.Values, []string{"json"}) {
				t.Errorf("header check %+v", c)
			}
			if c := r.Checks[9]; c.From != FromJSON || c.Path.String() != "$.a" || c.Op != OpExists || c.Values[0] != "false" {
				t.Errorf("exists check %+v", c)
			}
			if c := r.Checks[1]; c.Op != OpIn || !reflect.DeepEqual(c.Values, []string{"200", "201"}) {
				t.Errorf("status list check %+v", c)
			}
			if c := r.Checks[3]; c.Regex == nil || !c.Regex.MatchString(`"id": 42`) {
				t.Errorf("body_matches regex %v", c.Regex)
			}
			if !r.NeedBody {
				t.Error("NeedBody false with body and json checks")
			}
		}},
		{"extractions, vars and implicit checks", "t.yaml", `
base_url: http://h
scenarios:
  s:
    vus: 1
    duration: 1s
    data: users.csv
    flow:
      - get: /a/{{ token }}
        check: [{status: 200}]
        extract:
          token: {json: $.token}
          session: {header: set-cookie, regex: 'SESSION=([^;]+)'}
          csrf: {regex: 'name="csrf" value="([^"]+)"', default: ""}
          user: {json: $.user}
      - get: /b
        extract:
          loc: {header: Location}
        check: [{header: x-id, exists: true}]
`, func(t *testing.T, p *Plan) {
			s := p.Scenarios[0]
			if want := []string{"user", "password", "token", "session", "csrf", "loc"}; !reflect.DeepEqual(s.Vars, want) {
				t.Errorf("vars %v, want %v", s.Vars, want)
			}
			r := req(t, p, 0, 0)
			if got := render(r.URL, "", "", "T"); got != "http://h/a/T" {
				t.Errorf("URL rendered %q", got)
			}
			type ex struct {
				Name  string
				Var   int
				From  Source
				Check int32
			}
			var got []ex
			for _, e := range r.Extract {
				got = append(got, ex{e.Name, e.Var, e.From, e.Check})
			}
			want := []ex{{"token", 2, FromJSON, 1}, {"session", 3, FromHeader, 2}, {"csrf", 4, FromRegex, -1}, {"user", 0, FromJSON, 3}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("extractions %+v, want %+v", got, want)
			}
			if e := r.Extract[1]; e.Header != "Set-Cookie" || e.Regex == nil || e.Default != nil {
				t.Errorf("header extraction %+v", e)
			}
			if e := r.Extract[2]; e.Default == nil || *e.Default != "" {
				t.Errorf("csrf default %v, want empty string", e.Default)
			}
			if n := p.Layout.Checks[1].Name; n != "extract token" {
				t.Errorf("implicit check name %q", n)
			}
			if r := req(t, p, 0, 1); r.NeedBody {
				t.Error("NeedBody true when only headers are read")
			}
		}},
		{"thresholds in every form", "t.yaml", `
base_url: http://h
thresholds:
  http_req_duration: ["p(95) < 800ms", "p(99) < 1.5s"]
  http_req_failed: rate == 0
  'http_req_duration{endpoint:"GET /apps/first-page"}': ["p(95) < 500ms"]
  checks:
    - rate > 0.9
    - threshold: "rate > 0.99"
      abort_on_fail: true
      delay_abort_eval: 10s
  'checks{check:"status is 200", scenario: s}': {threshold: rate == 1}
scenarios:
  s:
    vus: 1
    duration: 1s
    flow: [{get: /apps/first-page, check: [status: 200]}]
`, func(t *testing.T, p *Plan) {
			type th struct {
				Key, Expr string
				Abort     bool
				Delay     time.Duration
			}
			var got []th
			for _, x := range p.Thresholds {
				got = append(got, th{x.Key, x.Expr, x.AbortOnFail, x.DelayAbortEval})
			}
			want := []th{
				{"http_req_duration", "p(95) < 800ms", false, 0},
				{"http_req_duration", "p(99) < 1.5s", false, 0},
				{"http_req_failed", "rate == 0", false, 0},
				{`http_req_duration{endpoint:"GET /apps/first-page"}`, "p(95) < 500ms", false, 0},
				{"checks", "rate > 0.9", false, 0},
				{"checks", "rate > 0.99", true, 10 * time.Second},
				{`checks{check:"status is 200", scenario: s}`, "rate == 1", false, 0},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("thresholds\n%+v\nwant\n%+v", got, want)
			}
			if x := p.Thresholds[1]; x.Metric != "http_req_duration" || x.P != 99 || x.Value != 1500 {
				t.Errorf("p(99) threshold %+v", x)
			}
		}},
	})
}

func TestExpectStatus(t *testing.T) {
	src := `
base_url: http://127.0.0.1:1
expect_status: [200, 201]
scenarios:
  s:
    model: iterations
    iterations: 1
    flow:
      - get: /default
      - post: /coupons/issue
        expect_status: [200, 409]
      - get: /one
        expect_status: 404
`
	p, err := Parse("t.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{200, 201}, {200, 409}, {404}}
	for i, st := range p.Scenarios[0].Flow {
		if !reflect.DeepEqual(st.Request.ExpectStatus, want[i]) {
			t.Errorf("step %d: expect %v, want %v", i, st.Request.ExpectStatus, want[i])
		}
	}
	_, err = Parse("t.yaml", []byte(strings.Replace(src, "expect_status: 404", "expect_status: 700", 1)), nil)
	if err == nil || !strings.Contains(err.Error(), "t.yaml:13:24: scenarios.s.flow[2].expect_status: 700 is not an HTTP status code") {
		t.Errorf("error %v", err)
	}
}
