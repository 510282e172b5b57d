package demo

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestShopEndpoints(t *testing.T) {
	srv := httptest.NewServer(NewShop(100, 50, 10).Handler())
	defer srv.Close()
	cases := []struct {
		method, path, body string
		want               int
		contains           string
	}{
		{"GET", "/apps/first-page", "", 200, `"apps"`},
		{"GET", "/apps/first-page/game", "", 200, `"category":"GAME"`},
		{"GET", "/apps/first-page/NOPE", "", 404, "unknown category"},
		{"GET", "/products/7", "", 200, `"id":7`},
		{"GET", "/products/51", "", 404, "no such product"},
		{"POST", "/login", `{"user":"ann","password":"x"}`, 200, `"token":"tok-ann-`},
		{"POST", "/login", `not json`, 400, "want"},
		{"GET", "/me", "", 401, "bad token"},
		{"POST", "/feed", `{"text":"hi"}`, 201, `"id":1`},
		{"GET", "/feed", "", 200, `"total":1`},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var sb strings.Builder
			buf := make([]byte, 4096)
			for {
				n, err := resp.Body.Read(buf)
				sb.Write(buf[:n])
				if err != nil {
					break
				}
			}
			if resp.StatusCode != c.want || !strings.Contains(sb.String(), c.contains) {
				t.Fatalf("status %d body %s; want %d containing %s", resp.StatusCode, sb.String(), c.want, c.contains)
			}
		})
	}
}

func TestCouponsAreNeverOverIssued(t *testing.T) {
	srv := httptest.NewServer(NewShop(1, 1, 25).Handler())
	defer srv.Close()
	var mu sync.Mutex
	codes := map[int]int{}
	maxIssued := 0.0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				resp, err := http.Post(srv.URL+"/coupons/issue", "application/json", nil)
				if err != nil {
					t.Error(err)
					return
				}
				var out map[string]float64
				json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				maxIssued = max(maxIssued, out["issued"])
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[200] != 25 || codes[409] != 55 || maxIssued != 25 {
		t.Fatalf("codes %v, most issued %v: want exactly the 25 coupons issued", codes, maxIssued)
	}
}
