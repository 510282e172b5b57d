package mock

import (
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
)

// calls returns n randString(65536) calls, each 24 bytes of config for 64 KiB of body.
func calls(n int) string { return strings.Repeat("{{ randString(65536) }}", n) }

func TestParseRefusesUnboundedResponses(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"body of 4,000 bounded calls", "routes:\n  - get: /amp\n    body: '" + calls(4000) + "'\n",
			[]string{`m.yaml:3:11: routes[0].body: this route's templates can render 262,144,000 bytes per response`, `more than the 16 MiB`}},
		{"json body just over", "routes:\n  - get: /amp\n    json: {a: '" + calls(257) + "'}\n",
			[]string{`m.yaml:3:11: routes[0].json:`, `16,842,760 bytes`}},
		{"headers of bounded calls", "routes:\n  - get: /h\n    headers: {A: '" + calls(200) + "', B: '" + calls(100) + "'}\n",
			[]string{`m.yaml:2:5: routes[0]: this route's templates can render 19,660,802 bytes per response`}},
		{"fixed latency of days", "routes:\n  - get: /x\n    latency: 100000h\n",
			[]string{`m.yaml:3:14: routes[0].latency: latency 100000h is more than the mock's limit of 1h`}},
		{"uniform max of days", "routes:\n  - get: /x\n    latency: {uniform: {min: 1ms, max: 48h}}\n", []string{`routes[0].latency.uniform.max: latency 48h`}},
		{"lognormal tail of days", "routes:\n  - get: /x\n    latency: {lognormal: {p50: 1ms, p99: 2000h}}\n", []string{`latency 2000h is more`}},
		{"percentile of days", "routes:\n  - get: /x\n    latency: {percentiles: {p50: 1ms, p99: 25h}}\n", []string{`latency 25h is more`}},
		{"default latency of days", "defaults: {latency: 2h}\nroutes:\n  - get: /x\n", []string{`m.yaml:1:21: defaults.latency: latency 2h is more`}},
		{"bandwidth of a byte in days", "routes:\n  - get: /bw\n    body: xxxxxxxxxx\n    bandwidth: 0.000001B/s\n",
			[]string{`m.yaml:4:16: routes[0].bandwidth: bandwidth "0.000001B/s" is below the mock's floor of 1 B/s`}},
		{"half a byte a second", "routes:\n  - get: /bw\n    bandwidth: 0.5B/s\n", []string{`below the mock's floor of 1 B/s`}},
		{"rate above 1", "routes:\n  - get: /x\n    errors: {rate: 101%}\n", []string{`bad rate "101%"`}},
		{"rate NaN", "routes:\n  - get: /x\n    errors: {rate: .nan}\n", []string{`bad rate`}},
		{"rate negative", "routes:\n  - get: /x\n    errors: {rate: -1%}\n", []string{`bad rate "-1%"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(c.src), nil)
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseAcceptsBoundedResponses(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"16 MiB of calls", "routes:\n  - get: /a\n    body: '" + calls(255) + "'\n"},
		{"echo of the body, JSON-escaped", "routes:\n  - post: /e\n    json: {got: '{{ body }}', path: '{{ path }}'}\n"},
		{"big file body is not rendered", "routes:\n  - get: /f\n    body: '" + strings.Repeat("x", 1<<20) + "'\n"},
		{"request fields are checked per request", "routes:\n  - post: /e\n    body: '" + strings.Repeat("{{ body }}", 17) + "'\n"},
		{"an hour of latency", "routes:\n  - get: /x\n    latency: 1h\n"},
		{"a byte a second", "routes:\n  - get: /x\n    bandwidth: 1B/s\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Parse("m.yaml", []byte(c.src), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAdminRefusesUnboundedBehaviour: the admin API checks changes as the file is checked.
func TestAdminRefusesUnboundedBehaviour(t *testing.T) {
	s := startServer(t, "listen: 127.0.0.1:0\nroutes:\n  - name: a\n    get: /a\n    body: hi\n")
	base := "http://" + s.Addr() + "/__mock/routes/a"
	for _, body := range []string{"bandwidth: 0.000001B/s", "latency: 100000h", "errors: {rate: 2}"} {
		if code, msg := put(t, base, body); code != http.StatusBadRequest {
			t.Errorf("PUT %q: %d %s, want 400", body, code, msg)
		}
	}
	if bw := s.cfg.Routes[0].Behavior().Bandwidth; bw != 0 {
		t.Errorf("bandwidth changed to %g B/s", bw)
	}
}

// TestLatencySamplesBounded draws from distributions whose tails reach past
// maxLatency: every delay stays within it, and none overflows to below 0.
func TestLatencySamplesBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name string
		l    Latency
	}{
		{"lognormal with a long tail", lognormal(time.Millisecond, "p75", time.Hour)},
		{"percentiles close together", percentiles([]Point{{Q: 0.5, D: time.Millisecond}, {Q: 0.5 + 1e-12, D: time.Hour}})},
	} {
		t.Run(c.name, func(t *testing.T) {
			for range 10000 {
				if d := c.l.Sample(r); d < 0 || d > maxLatency {
					t.Fatalf("sample %s, want 0..%s", d, maxLatency)
				}
			}
		})
	}
}

func TestBudget(t *testing.T) {
	b := newBudget(100)
	never := make(chan struct{})
	if !b.acquire(60, never) {
		t.Fatal("first acquire failed")
	}
	gone := make(chan struct{})
	close(gone)
	if b.acquire(60, gone) {
		t.Fatal("acquired 60 of 40 free bytes")
	}
	got := make(chan bool, 1)
	go func() { got <- b.acquire(60, never) }()
	select {
	case <-got:
		t.Fatal("acquired before a release")
	default:
	}
	b.release(60)
	select {
	case ok := <-got:
		if !ok {
			t.Fatal("acquire after release failed")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("acquire did not wake on release")
	}
}

func TestReservation(t *testing.T) {
	cfg, err := Parse("m.yaml", []byte("routes:\n  - post: /e\n    body: '{{ body }}'\n  - get: /r\n    body: '"+calls(2)+"'\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	echo, random := cfg.Routes[0], cfg.Routes[1]
	for _, c := range []struct {
		name string
		rt   *Route
		vals []string
		want int64
	}{
		{"small echo skips the budget", echo, []string{"GET", "/e", "", "small", ""}, 0},
		{"large echo reserves its size", echo, []string{"GET", "/e", "", strings.Repeat("x", 100000), ""}, 100000},
		{"large constant-free body", random, nil, 2 * 65536},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := reservation(c.rt, c.vals); got != c.want {
				t.Errorf("reservation = %d, want %d", got, c.want)
			}
		})
	}
}

// TestAnswerTooLargeForRequest: what request fields add to a response is
// bounded per request, with a 500 that says why.
func TestAnswerTooLargeForRequest(t *testing.T) {
	s := startServer(t, "listen: 127.0.0.1:0\nroutes:\n  - post: /e\n    body: '"+strings.Repeat("{{ body }}", 17)+"'\n")
	for _, c := range []struct {
		name   string
		body   string
		status int
		want   string
	}{
		{"small body echoed", "ab", http.StatusOK, strings.Repeat("ab", 17)},
		{"1 MiB body echoed 17 times", strings.Repeat("x", 1<<20), http.StatusInternalServerError, "could render 17,825,792 bytes, more than the 16 MiB an answer may"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := http.Post("http://"+s.Addr()+"/e", "text/plain", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Errorf("%d %.200q, want %d with %q", resp.StatusCode, b, c.status, c.want)
			}
		})
	}
}
