//go:build unix && demobackends

package demo

import (
	"fmt"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// TestRealServers runs the shop on a real PostgreSQL 15 and a real Redis,
// the way --postgres and --redis do, and checks each variant's behaviour.
func TestRealServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and Redis")
	}
	cases := []struct {
		name   string
		opts   func(t *testing.T) Options
		dbName string
	}{
		{"postgres", func(t *testing.T) Options { return Options{Postgres: testkit.StartPostgres(t)} }, "postgres"},
		{"redis", func(t *testing.T) Options { return Options{Redis: testkit.StartRedis(t)} }, "shop"},
		{"postgres and redis", func(t *testing.T) Options {
			return Options{Postgres: testkit.StartPostgres(t), Redis: testkit.StartRedis(t)}
		}, "postgres"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts(t)
			o.Rows, o.Apps, o.Reviews, o.Products, o.Coupons, o.CacheDelay = 300, 50, 2000, 40, 20, 3*time.Millisecond
			tg := startShop(t, o)
			exerciseShop(t, tg, c.dbName)
		})
	}
}

// exerciseShop checks the variants' behaviour on whatever backs the shop.
func exerciseShop(t *testing.T, tg *Target, dbName string) {
	t.Run("first page and feed agree across variants", func(t *testing.T) {
		do(t, "POST", tg.URL+"/feed", "", `{"text":"fresh","user":2}`)
		for _, path := range []string{"/apps/first-page", "/apps/first-page/tools", "/feed"} {
			list := "apps"
			if path == "/feed" {
				list = "posts"
			}
			_, naive, _ := do(t, "GET", tg.URL+path, "naive", "")
			_, improved, _ := do(t, "GET", tg.URL+path, "improved", "")
			a, b := firstIDs(t, naive, list), firstIDs(t, improved, list)
			if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%s: naive %v, improved %v", path, a, b)
			}
		}
	})
	t.Run("the product cache hits", func(t *testing.T) {
		for range 2 {
			if status, body, _ := do(t, "GET", tg.URL+"/products/9", "improved", ""); status != 200 {
				t.Fatalf("%d %s", status, body)
			}
		}
		_, hits, _ := scrape(t, tg.URL).value("demo_cache_requests_total", "cache", "product", "result", "hit")
		if hits < 1 {
			t.Fatalf("%v product cache hits; want at least 1", hits)
		}
	})
	coupons := []struct {
		variant    string
		overIssues bool
	}{{"naive-race", true}, {"naive", true}, {"naive-tx", false}, {"improved", false}}
	for _, c := range coupons {
		t.Run("coupons "+c.variant, func(t *testing.T) {
			do(t, "POST", tg.URL+"/coupons/reset?count=20", "", "")
			hammer(t, tg.URL, c.variant, 16, 6)
			_, issued, over := readStats(t, tg.URL)
			if got := issued > 20 && over > 0; got != c.overIssues || (!c.overIssues && issued != 20) {
				t.Fatalf("issued %d of 20, over_issued %d; want over-issue: %v", issued, over, c.overIssues)
			}
		})
	}
	t.Run("the pool is exposed under its database's name", func(t *testing.T) {
		if _, v, ok := scrape(t, tg.URL).value("go_sql_max_open_connections", "db_name", dbName); !ok || v != 10 {
			t.Fatalf("go_sql_max_open_connections{db_name=%q} = %v (found %v); want 10", dbName, v, ok)
		}
	})
}
