package engine

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// rawServer answers every request with head (a status line and header
// fields, without the blank line) and body, then closes the connection.
func rawServer(t *testing.T, head, body string) string {
	t.Helper()
	return headServer(t, 10*time.Second, func(c net.Conn, _ *bufio.Reader) {
		c.Write([]byte(head + "\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
	})
}

// TestStatusesOutsideHTTPAreMalformed: a status HTTP does not define (600,
// 999, 099) is a malformed response, kind other, never a 5xx or a success;
// 100 to 599 keep their classes.
func TestStatusesOutsideHTTPAreMalformed(t *testing.T) {
	cases := []struct {
		status string
		kind   sample.Kind
		msg    string // what the error sample says, "" for none
	}{
		{"999", sample.Other, "malformed HTTP response: status 999 (not 100–599)"},
		{"600", sample.Other, "malformed HTTP response: status 600 (not 100–599)"},
		{"099", sample.Other, "malformed HTTP response: status"}, // the lean client rejects it, net/http passes 99 on
		{"599", sample.HTTP5xx, "599 Odd"},
		{"500", sample.HTTP5xx, "500 Odd"},
		{"404", sample.HTTP4xx, "404 Odd"},
		{"200", sample.OK, ""},
	}
	for _, c := range cases {
		for _, cl := range clients() {
			t.Run(c.status+"/"+cl.name, func(t *testing.T) {
				url := rawServer(t, "HTTP/1.1 "+c.status+" Odd", "ok")
				s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 2, MaxDuration: time.Minute}, get(url))
				rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
				if len(rec.reqs) != 2 {
					t.Fatalf("%d samples, want 2", len(rec.reqs))
				}
				for _, q := range rec.reqs {
					if q.Kind != c.kind || !strings.HasPrefix(q.Err, c.msg) || (c.msg == "") != (q.Err == "") {
						t.Fatalf("kind %v %q, want %v %q", q.Kind, q.Err, c.kind, c.msg)
					}
				}
			})
		}
	}
}
