package engine

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// TestChecksRecordWhatTheyRead: the outside trial's check "$.price >= 10"
// failed only on expected 404s whose body was "nope", and diagnosis,
// seeing passes and fails under 15 VUs, called it a race. Each outcome
// now carries the answer's status and whether the check could read its
// value, which diagnosis reads.
func TestChecksRecordWhatTheyRead(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/items/13":
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "nope")
		case "/items/2":
			fmt.Fprint(w, `{"name": "no price"}`)
		case "/items/3":
			fmt.Fprint(w, `{"price": 3}`)
		default:
			fmt.Fprint(w, `{"price": 12}`)
		}
	}))
	defer srv.Close()
	src := `base_url: %s
expect_status: [200, 404]
scenarios:
  s:
    iterations: 1
    vus: 1
    flow:
      - get: /items/1
        check: [{json: $.price, gte: 10}]
      - get: /items/13
        check: [{json: $.price, gte: 10}]
      - get: /items/2
        check: [{json: $.price, gte: 10}, {json: $.price, exists: true}]
      - get: /items/3
        check: [{json: $.price, gte: 10}]
`
	p, err := plan.Parse("t.yaml", []byte(fmt.Sprintf(src, srv.URL)), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := newTestRecorder()
	if err := New(p, rec, Options{}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []checkReadOf{
		{0, true, sample.CheckRead{Status: 200}},
		{1, false, sample.CheckRead{Status: 404, NotJSON: true}},
		{2, false, sample.CheckRead{Status: 200, NoValue: true}},
		{3, false, sample.CheckRead{Status: 200}}, // an exists check judges the path itself
		{4, false, sample.CheckRead{Status: 200}}, // a value read that is too low
	}
	if fmt.Sprint(rec.reads) != fmt.Sprint(want) {
		t.Errorf("checks recorded\n%v\nwant\n%v", rec.reads, want)
	}
}
