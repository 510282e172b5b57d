package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/historystore"
	"github.com/loadlens/loadlens/internal/plan"
)

// runInto runs a test of two scenarios at rate against srv into results,
// with tags, and returns the run directory.
func runInto(t *testing.T, results, url string, rate int, tags map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.yaml")
	yaml := fmt.Sprintf(`
name: shop
base_url: %s
scenarios:
  browse:
    model: arrival-rate
    rate: %d
    duration: 1s
    flow:
      - get: /products
      - get: /broken
  buy:
    model: vus
    vus: 1
    duration: 1s
    flow:
      - post: /orders
`, url, rate)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := plan.ParseFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Run(ctx, RunConfig{Plan: p, ResultsDir: results, Out: &out, Quiet: true, Version: "test", Tags: tags})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out.String())
	}
	if bytes.Contains(out.Bytes(), []byte("history: not recorded")) {
		t.Fatalf("the run was not recorded in the index:\n%s", out.String())
	}
	return res.Dir
}

func shopServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			http.Error(w, "no", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func indexEntries(t *testing.T, results string) []historystore.Entry {
	t.Helper()
	ix, err := historystore.OpenIndex(filepath.Join(results, historystore.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	es, err := ix.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// The index written as each run ends holds exactly what a rebuild from the
// run directories reads back: deleting history.db loses nothing.
func TestRebuiltIndexEqualsIncremental(t *testing.T) {
	srv := shopServer(t)
	results := filepath.Join(t.TempDir(), "results")
	runInto(t, results, srv.URL, 20, map[string]string{"commit": "a1b2c3", "fix": "pool 10→50"})
	runInto(t, results, srv.URL, 20, nil)
	runInto(t, results, srv.URL, 30, map[string]string{"commit": "d4e5f6"})
	incremental := indexEntries(t, results)
	if len(incremental) != 3 {
		t.Fatalf("the index holds %d runs after 3 runs, want 3", len(incremental))
	}
	if err := os.Remove(filepath.Join(results, historystore.IndexFile)); err != nil {
		t.Fatal(err)
	}
	runs, skipped, err := SyncIndex(context.Background(), results)
	if err != nil || len(skipped) > 0 || len(runs) != 3 {
		t.Fatalf("SyncIndex: %d runs, skipped %v, err %v", len(runs), skipped, err)
	}
	rebuilt := indexEntries(t, results)
	for i := range incremental {
		a, _ := json.MarshalIndent(incremental[i], "", " ")
		b, _ := json.MarshalIndent(rebuilt[i], "", " ")
		if !reflect.DeepEqual(incremental[i], rebuilt[i]) {
			t.Errorf("run %d differs:\nincremental %s\nrebuilt     %s", i, a, b)
		}
	}
	first := incremental[0].Run
	if first.Tags["fix"] != "pool 10→50" || len(first.Endpoints) != 3 || first.Endpoints[1].ErrorRate != 1 {
		t.Errorf("first run's record %+v: want its tags and 3 endpoints, /broken all failed", first)
	}
	if incremental[0].Run.ShapeID != incremental[1].Run.ShapeID || incremental[0].Run.ShapeID == incremental[2].Run.ShapeID {
		t.Errorf("shapes %q %q %q: want the first two alike and the third (another rate) apart",
			incremental[0].Run.Shape, incremental[1].Run.Shape, incremental[2].Run.Shape)
	}
}

// A run directory removed is forgotten; one added (copied from another
// machine) is read.
func TestSyncIndexFollowsTheRunDirectories(t *testing.T) {
	srv := shopServer(t)
	results := filepath.Join(t.TempDir(), "results")
	a := runInto(t, results, srv.URL, 20, nil)
	b := runInto(t, results, srv.URL, 20, nil)
	other := filepath.Join(t.TempDir(), "results")
	c := runInto(t, other, srv.URL, 20, nil)
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(c, filepath.Join(results, filepath.Base(c)+"-copied")); err != nil {
		t.Fatal(err)
	}
	runs, _, err := SyncIndex(context.Background(), results)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, filepath.Base(r.Dir))
	}
	want := []string{filepath.Base(b), filepath.Base(c) + "-copied"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
	if n := len(indexEntries(t, results)); n != 2 {
		t.Errorf("the index holds %d runs, want 2", n)
	}
}

// Tags are kept in run.db and summary.json.
func TestTagsKeptInRunDBAndSummary(t *testing.T) {
	srv := shopServer(t)
	dir := runInto(t, filepath.Join(t.TempDir(), "results"), srv.URL, 20, map[string]string{"commit": "a1b2c3"})
	in, err := LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if in.Tags["commit"] != "a1b2c3" || in.Shape == "" {
		t.Errorf("run.db: tags %v, shape %q", in.Tags, in.Shape)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Tags  map[string]string `json:"tags"`
			Shape string            `json:"load_shape"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Loadlens.Tags["commit"] != "a1b2c3" || s.Loadlens.Shape != in.Shape {
		t.Errorf("summary.json: tags %v shape %q, want commit=a1b2c3 and %q", s.Loadlens.Tags, s.Loadlens.Shape, in.Shape)
	}
}
