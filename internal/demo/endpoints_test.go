package demo

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEndpointsInBothVariants(t *testing.T) {
	tg := startShop(t, small)
	cases := []struct {
		name, method, path, body string
		want                     int
		contains                 string
	}{
		{"health", "GET", "/healthz", "", 200, `"status":"ok"`},
		{"first page", "GET", "/apps/first-page", "", 200, `"apps":[{"id":`},
		{"first page of a category", "GET", "/apps/first-page/game", "", 200, `"category":"GAME"`},
		{"first page of an unknown category", "GET", "/apps/first-page/NOPE", "", 404, "unknown category NOPE"},
		{"product", "GET", "/products/7", "", 200, `"id":7,"name":"product-7"`},
		{"product not in the catalogue", "GET", "/products/41", "", 404, "no such product"},
		{"product id not a number", "GET", "/products/abc", "", 404, "positive integer id"},
		{"login", "POST", "/login", `{"user":"ann","password":"x"}`, 200, `"token":"tok-ann-`},
		{"login without JSON", "POST", "/login", `not json`, 400, "want a JSON body"},
		{"me without a token", "GET", "/me", "", 401, "bad token"},
		{"write a post", "POST", "/feed", `{"text":"hi","user":3}`, 201, `"id":`},
		{"write an empty post", "POST", "/feed", `{}`, 400, "want a JSON body"},
		{"read the feed", "GET", "/feed", "", 200, `"posts":[{"id":`},
		{"issue a coupon", "POST", "/coupons/issue?user=ann", "", 201, `"serial":`},
		{"coupon stats", "GET", "/coupons/stats", "", 200, `"over_issued":0`},
		{"reset with a bad count", "POST", "/coupons/reset?count=-1", "", 400, "count=-1"},
		{"unknown endpoint", "GET", "/nope", "", 404, "no such endpoint: GET /nope"},
	}
	for _, variant := range []string{"naive", "improved"} {
		for _, c := range cases {
			t.Run(variant+"/"+c.name, func(t *testing.T) {
				status, body, _ := do(t, c.method, tg.URL+c.path, variant, c.body)
				if status != c.want || !strings.Contains(body, c.contains) {
					t.Fatalf("%s %s: status %d body %s; want %d containing %s", c.method, c.path, status, body, c.want, c.contains)
				}
			})
		}
	}
}

func TestVariantHeader(t *testing.T) {
	tg := startShop(t, Options{Rows: 300, Apps: 50, Reviews: 2000, Products: 40, CacheDelay: -1, DefaultVariant: Improved})
	cases := []struct {
		name, header string
		want         int
		echo, source string
	}{
		{"naive", "naive", 200, "naive", `"source":"aggregate"`},
		{"improved", "improved", 200, "improved", `"source":"precomputed"`},
		{"case does not matter", "NAIVE", 200, "naive", `"source":"aggregate"`},
		{"the server default without a header", "", 200, "improved", `"source":"precomputed"`},
		{"an unknown variant", "fast", 400, "", `unknown variant \"fast\"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, h := do(t, "GET", tg.URL+"/apps/first-page/edu", c.header, "")
			if status != c.want || h.Get(VariantHeader) != c.echo || !strings.Contains(body, c.source) {
				t.Fatalf("status %d, %s %q, body %s; want %d, %q, containing %s", status, VariantHeader, h.Get(VariantHeader), body, c.want, c.echo, c.source)
			}
		})
	}
}

func TestLoginThenMe(t *testing.T) {
	tg := startShop(t, small)
	_, body, _ := do(t, "POST", tg.URL+"/login", "", `{"user":"bo","password":"pw"}`)
	var login struct{ Token string }
	if err := json.Unmarshal([]byte(body), &login); err != nil || login.Token == "" {
		t.Fatalf("login answered %s (%v)", body, err)
	}
	cases := []struct {
		name, auth string
		want       int
		contains   string
	}{
		{"the token from login", "Bearer " + login.Token, 200, `"user":"bo"`},
		{"a made-up token", "Bearer tok-bo-0", 401, "bad token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := mustRequest(t, "GET", tg.URL+"/me")
			req.Header.Set("Authorization", c.auth)
			status, body := send(t, req)
			if status != c.want || !strings.Contains(body, c.contains) {
				t.Fatalf("status %d body %s; want %d containing %s", status, body, c.want, c.contains)
			}
		})
	}
}
