package engine

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestMaxBodyKeepsTheStart: past max_body a body is read and dropped, the
// sample says it was truncated, and checks and extractions run on the part
// that was kept, on both clients.
func TestMaxBodyKeepsTheStart(t *testing.T) {
	page := "id=42;" + strings.Repeat("x", 5000) + "THE END"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) }))
	defer srv.Close()
	for _, cl := range clients() {
		t.Run(cl.name, func(t *testing.T) {
			step := get(srv.URL)
			r := step.Request
			r.NeedBody, r.MaxBody = true, 100
			r.Extract = []plan.Extract{{Var: 0, Name: "id", From: plan.FromRegex, Regex: regexp.MustCompile(`id=(\d+)`), Check: 0}}
			r.Checks = []plan.Check{
				{ID: 1, Name: "has the start", From: plan.FromBody, Op: plan.OpContains, Values: []string{"id=42"}},
				{ID: 2, Name: "has the end", From: plan.FromBody, Op: plan.OpContains, Values: []string{"THE END"}},
			}
			s := scenario(plan.Load{Model: plan.Iterations, VUCount: 1, Count: 3, MaxDuration: time.Minute}, step)
			s.Vars = []string{"id"}
			rec, _ := runPlan(t, &plan.Plan{Scenarios: []*plan.Scenario{s}}, cl.opts)
			for _, q := range rec.reqs {
				if !q.Truncated || q.Status != 200 || q.Received < int64(len(page)) {
					t.Fatalf("sample %+v: want a 200, truncated, with every byte counted", q)
				}
			}
			want := map[int32][2]int{0: {3, 0}, 1: {3, 0}, 2: {0, 3}} // [passes, fails]
			for id, w := range want {
				if rec.passes[id] != w[0] || rec.fails[id] != w[1] {
					t.Errorf("check %d: %d passes, %d fails; want %v", id, rec.passes[id], rec.fails[id], w)
				}
			}
		})
	}
}
