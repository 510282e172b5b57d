//go:build !demobackends

package demo

import (
	"strings"
	"testing"
)

// TestBackendsNotBuilt: without -tags demobackends, --redis is refused at
// once with the build line that has it, before anything is opened; the
// databases are all built in.
func TestBackendsNotBuilt(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want string // "" for no error
	}{
		{"embedded SQLite and LRU", Options{}, ""},
		{"an SQLite file", Options{SQLitePath: "shop.db"}, ""},
		{"postgres", Options{Postgres: "postgres://127.0.0.1:1/shop"}, ""},
		{"redis", Options{Redis: "127.0.0.1:1"}, "--redis (Redis)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.o.withDefaults()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.want == "":
			case err == nil:
				t.Fatal("no error: the backend is not built in")
			case !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "go build -tags demobackends ./cmd/loadlens"):
				t.Fatalf("error %q: want %q and the build line", err, c.want)
			}
		})
	}
}
