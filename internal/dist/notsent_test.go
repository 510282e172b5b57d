package dist

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentsCountIterationsNotSent: iterations that ended before sending
// travel in the agents' seconds as dropped ones do, and the coordinator's
// run adds them up with their reason; the requests they did not send are
// in no agent's request count: each agent's row says how many of its
// iterations ended so (summary.json's agents, report.html's NOT SENT),
// and the agents' add up to the run's.
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
	b, err := os.ReadFile(filepath.Join(res.Dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Loadlens struct {
			Agents []struct {
				Iterations int64 `json:"iterations"`
				Requests   int64 `json:"requests"`
				NotSent    int64 `json:"iterations_not_sent"`
			} `json:"agents"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	var notSent, reqs int64
	for _, a := range sum.Loadlens.Agents {
		notSent += a.NotSent
		reqs += a.Requests
		if a.NotSent != a.Iterations {
			t.Errorf("an agent ran %d iterations, every one ended not sent, yet says %d not sent", a.Iterations, a.NotSent)
		}
	}
	if len(sum.Loadlens.Agents) != 2 || notSent != 10 || reqs != 10 {
		t.Errorf("summary.json's agents %+v: want 2 whose iterations not sent add up to 10 and requests to 10", sum.Loadlens.Agents)
	}
	if html, err := os.ReadFile(res.Report); err != nil || !strings.Contains(string(html), ">NOT SENT</th>") {
		t.Errorf("report.html's per-agent table has no NOT SENT column (%v)", err)
	}
}
