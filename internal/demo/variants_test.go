package demo

import (
	"encoding/json"
	"testing"
)

// firstIDs returns the ids of the items of one list in a JSON body, in order.
func firstIDs(t *testing.T, body, list string) []int64 {
	t.Helper()
	var raw map[string]json.RawMessage
	var items []struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatalf("not JSON: %s", body)
	}
	if err := json.Unmarshal(raw[list], &items); err != nil {
		t.Fatalf("%s is not a list of items with ids: %s", list, body)
	}
	ids := make([]int64, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return ids
}

func TestVariantsAnswerAlike(t *testing.T) {
	tg := startShop(t, small)
	if status, body, _ := do(t, "POST", tg.URL+"/feed", "naive", `{"text":"newest","user":1}`); status != 201 {
		t.Fatalf("writing a post: %d %s", status, body)
	}
	cases := []struct {
		name, path, list string
		want             int
	}{
		{"the precomputed ranking is the aggregate's", "/apps/first-page", "apps", 20},
		{"and per category", "/apps/first-page/music", "apps", 10},
		{"the feed's 20 newest posts", "/feed", "posts", 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, naive, _ := do(t, "GET", tg.URL+c.path, "naive", "")
			_, improved, _ := do(t, "GET", tg.URL+c.path, "improved", "")
			a, b := firstIDs(t, naive, c.list), firstIDs(t, improved, c.list)
			if len(a) != c.want || len(a) != len(b) {
				t.Fatalf("naive listed %d, improved %d; want %d each", len(a), len(b), c.want)
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("item %d: naive %d, improved %d\nnaive: %s\nimproved: %s", i, a[i], b[i], naive, improved)
				}
			}
		})
	}
}

func TestProductCacheOnlyInTheImprovedVariant(t *testing.T) {
	cases := []struct {
		variant      string
		hits, misses float64
	}{
		{"naive", 0, 0},
		{"improved", 2, 1},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			tg := startShop(t, small)
			for range 3 {
				if status, body, _ := do(t, "GET", tg.URL+"/products/3", c.variant, ""); status != 200 {
					t.Fatalf("status %d: %s", status, body)
				}
			}
			e := scrape(t, tg.URL)
			_, hits, _ := e.value("demo_cache_requests_total", "cache", "product", "result", "hit")
			_, misses, _ := e.value("demo_cache_requests_total", "cache", "product", "result", "miss")
			if hits != c.hits || misses != c.misses {
				t.Fatalf("%v hits and %v misses; want %v and %v", hits, misses, c.hits, c.misses)
			}
		})
	}
}
