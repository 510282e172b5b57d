package live

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func startTestDashboard(t *testing.T) *Dashboard {
	t.Helper()
	d, err := StartDashboard("127.0.0.1:0", []byte(`{"name":"shop"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// event is one server-sent event.
type event struct{ name, data string }

// stream is a browser's view of /events.
type stream struct {
	resp *http.Response
	r    *bufio.Reader
}

func connect(t *testing.T, d *Dashboard) *stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", d.URL()+"events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	return &stream{resp: resp, r: bufio.NewReader(resp.Body)}
}

// next reads the next event with a name, skipping retry-only blocks.
func (s *stream) next(t *testing.T) (event, error) {
	t.Helper()
	var ev event
	for lines := 0; lines < 10000; lines++ {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && ev.name != "":
			return ev, nil
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.data += strings.TrimPrefix(line, "data: ")
		}
	}
	t.Fatal("no event within 10000 lines")
	return ev, nil
}

func (s *stream) expect(t *testing.T, name, data string) {
	t.Helper()
	ev, err := s.next(t)
	if err != nil {
		t.Fatalf("reading event %q: %v", name, err)
	}
	if ev.name != name || ev.data != data {
		t.Fatalf("event %q %s, want %q %s", ev.name, ev.data, name, data)
	}
}

func TestDashboardStreamsTheRun(t *testing.T) {
	cases := []struct {
		name        string
		meta        string   // SetMeta before the browser connects; "": none
		before      []string // frames published before the browser connects
		after       []string // frames published while it is connected
		wantHistory string
	}{
		{"opened at the start", "", nil, []string{`{"t":0}`, `{"t":1}`}, `{"meta":{"name":"shop"},"frames":[]}`},
		{"opened mid-run", "", []string{`{"t":0}`, `{"t":1}`}, []string{`{"t":2}`}, `{"meta":{"name":"shop"},"frames":[{"t":0},{"t":1}]}`},
		{"start fixed after serving", `{"name":"shop","start":"12:00:01"}`, nil, []string{`{"t":0}`},
			`{"meta":{"name":"shop","start":"12:00:01"},"frames":[]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := startTestDashboard(t)
			if c.meta != "" {
				d.SetMeta([]byte(c.meta))
			}
			for _, f := range c.before {
				d.Publish([]byte(f))
			}
			s := connect(t, d)
			s.expect(t, "history", c.wantHistory)
			for _, f := range c.after {
				d.Publish([]byte(f))
				s.expect(t, "frame", f)
			}
			d.End([]byte(`{"verdict":"PASS"}`))
			s.expect(t, "end", `{"verdict":"PASS"}`)
			if _, err := s.next(t); err != io.EOF {
				t.Fatalf("after the end event: %v, want the stream to end", err)
			}
		})
	}
}

func TestDashboardAfterTheEnd(t *testing.T) {
	d := startTestDashboard(t)
	d.Publish([]byte(`{"t":0}`))
	d.End([]byte(`{"verdict":"FAIL"}`))
	d.Publish([]byte(`{"t":1}`)) // ignored: the run is over
	s := connect(t, d)
	s.expect(t, "history", `{"meta":{"name":"shop"},"frames":[{"t":0}]}`)
	s.expect(t, "end", `{"verdict":"FAIL"}`)
}

// TestStuckBrowserNeverBlocksPublish connects a browser that never reads:
// publishing must go on at full speed and drop that browser.
func TestStuckBrowserNeverBlocksPublish(t *testing.T) {
	d := startTestDashboard(t)
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(d.URL(), "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	waitSubscribers(t, d, 1)

	frame := []byte(`{"t":0,"pad":"` + strings.Repeat("x", 64<<10) + `"}`)
	done := make(chan struct{})
	go func() {
		for range 2 * subscriberBuffer {
			d.Publish(frame)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Publish blocked on a browser that does not read")
	}
	waitSubscribers(t, d, 0)
}

// waitSubscribers waits until d streams to n browsers.
func waitSubscribers(t *testing.T, d *Dashboard, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d.mu.Lock()
		got := len(d.subs)
		d.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d browsers connected, want %d", got, n)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, bounded by the deadline
	}
}

func TestDashboardPage(t *testing.T) {
	d := startTestDashboard(t)
	port := d.ln.Addr().(*net.TCPAddr).Port
	cases := []struct {
		name, host, path string
		want             int
	}{
		{"by IP", fmt.Sprintf("127.0.0.1:%d", port), "/", http.StatusOK},
		{"as localhost", fmt.Sprintf("localhost:%d", port), "/", http.StatusOK},
		{"another name (DNS rebinding)", fmt.Sprintf("evil.example:%d", port), "/", http.StatusForbidden},
		{"events under another name", "evil.example", "/events", http.StatusForbidden},
		{"unknown path", fmt.Sprintf("127.0.0.1:%d", port), "/nope", http.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", d.URL()+strings.TrimPrefix(c.path, "/"), nil)
			req.Host = c.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.want)
			}
			if c.want != http.StatusOK {
				return
			}
			csp := resp.Header.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'none'", "'sha256-", "connect-src 'self'", "frame-ancestors 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("Content-Security-Policy %q lacks %s", csp, want)
				}
			}
			for _, want := range []string{"<title>loadlens", "uPlot", "EventSource"} {
				if !strings.Contains(string(body), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

func TestDashboardAddressInUse(t *testing.T) {
	d := startTestDashboard(t)
	addr := strings.TrimSuffix(strings.TrimPrefix(d.URL(), "http://"), "/")
	_, err := StartDashboard(addr, []byte(`{}`), "")
	if err == nil || !strings.Contains(err.Error(), "--dashboard-addr") {
		t.Fatalf("second dashboard on %s: %v, want an error naming --dashboard-addr", addr, err)
	}
}

func TestDashboardStreamsTheDiagnosis(t *testing.T) {
	cases := []struct {
		name        string
		before      string // diagnosis set before the browser connects; "": none
		after       string // diagnosis set while it is connected; "": none
		wantHistory string
	}{
		{"none yet", "", `{"findings":[]}`, `{"meta":{"name":"shop"},"frames":[{"t":0}]}`},
		{"opened after one", `{"findings":[{"n":1}]}`, "", `{"meta":{"name":"shop"},"frames":[{"t":0}],"diagnosis":{"findings":[{"n":1}]}}`},
		{"replaced while watching", `{"findings":[]}`, `{"findings":[{"n":1}]}`, `{"meta":{"name":"shop"},"frames":[{"t":0}],"diagnosis":{"findings":[]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := startTestDashboard(t)
			d.Publish([]byte(`{"t":0}`))
			if c.before != "" {
				d.SetDiagnosis([]byte(c.before))
			}
			s := connect(t, d)
			s.expect(t, "history", c.wantHistory)
			if c.after != "" {
				d.SetDiagnosis([]byte(c.after))
				s.expect(t, "diagnosis", c.after)
			}
			d.End([]byte(`{"verdict":"PASS"}`))
			d.SetDiagnosis([]byte(`{"late":true}`)) // ignored: the end event carries the final diagnosis
			s.expect(t, "end", `{"verdict":"PASS"}`)
			if _, err := s.next(t); err != io.EOF {
				t.Fatalf("after the end event: %v, want the stream to end", err)
			}
		})
	}
}

func TestDashboardStreamsTheEndpointTable(t *testing.T) {
	cases := []struct {
		name        string
		before      []string // tables set before the browser connects
		after       string   // table set while it is connected; "": none
		wantHistory string
	}{
		{"none yet", nil, `{"rows":[{"rq":1}]}`, `{"meta":{"name":"shop"},"frames":[{"t":0}]}`},
		{"only the latest is kept", []string{`{"rows":[{"rq":1}]}`, `{"rows":[{"rq":2}]}`}, "",
			`{"meta":{"name":"shop"},"frames":[{"t":0}],"endpoints":{"rows":[{"rq":2}]}}`},
		{"replaced while watching", []string{`{"rows":[]}`}, `{"rows":[{"rq":3}]}`,
			`{"meta":{"name":"shop"},"frames":[{"t":0}],"endpoints":{"rows":[]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := startTestDashboard(t)
			d.Publish([]byte(`{"t":0}`))
			for _, tb := range c.before {
				d.SetEndpoints([]byte(tb))
			}
			s := connect(t, d)
			s.expect(t, "history", c.wantHistory)
			if c.after != "" {
				d.SetEndpoints([]byte(c.after))
				s.expect(t, "endpoints", c.after)
			}
			d.End([]byte(`{"verdict":"PASS"}`))
			d.SetEndpoints([]byte(`{"late":true}`)) // ignored: the end event carries the whole run's table
			s.expect(t, "end", `{"verdict":"PASS"}`)
			if _, err := s.next(t); err != io.EOF {
				t.Fatalf("after the end event: %v, want the stream to end", err)
			}
		})
	}
}
