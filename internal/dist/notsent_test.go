package dist

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAgentsCountIterationsNotSent: iterations that ended before sending
// travel in the agents' seconds as dropped ones do, and the coordinator's
// run adds them up with their reason; the requests they did not send are
// in no agent's request count.
func TestAgentsCountIterationsNotSent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"user":"a\r\nb"}`) // a value no URL can carry
	}))
	t.Cleanup(srv.Close)
	path := writeTest(t, fmt.Sprintf(`
name: notsent
base_url: %s
scenarios:
  s:
    iterations: 10
    vus: 1
    flow:
      - get: /id
        extract: {user: {json: $.user}}
      - get: /u/{{ user }}
`, srv.URL), nil)
	res, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token})
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	r := readRun(t, res.Dir)
	sc := r.Scenarios[0]
	if sc.Iterations != 10 || sc.NotSent != 10 || r.Endpoints[0].Requests != 10 || r.Endpoints[1].Requests != 0 {
		t.Fatalf("%d iterations, %d not sent, %d and %d requests; want 10, 10, 10 and 0", sc.Iterations, sc.NotSent,
			r.Endpoints[0].Requests, r.Endpoints[1].Requests)
	}
	if len(sc.NotSentWhy) != 1 || sc.NotSentWhy[0].Count != 10 || !strings.HasPrefix(sc.NotSentWhy[0].Message, "not sent: GET "+srv.URL+"/u/{{ user }} has a line break") {
		t.Errorf("reasons %+v, want one, counted 10", sc.NotSentWhy)
	}
}
