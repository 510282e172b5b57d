package demo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

// hammer sends clients × each POST /coupons/issue at once and counts the statuses.
func hammer(t *testing.T, baseURL, variant string, clients, each int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				req, _ := http.NewRequest("POST", fmt.Sprintf("%s/coupons/issue?user=c%d-%d", baseURL, c, i), nil)
				req.Header.Set(VariantHeader, variant)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return codes
}

func readStats(t *testing.T, baseURL string) (size, issued, over int64) {
	t.Helper()
	status, body, _ := do(t, "GET", baseURL+"/coupons/stats", "", "")
	var s struct {
		Size       int64 `json:"size"`
		Issued     int64 `json:"issued"`
		OverIssued int64 `json:"over_issued"`
	}
	if err := json.Unmarshal([]byte(body), &s); status != 200 || err != nil {
		t.Fatalf("stats: %d %s (%v)", status, body, err)
	}
	return s.Size, s.Issued, s.OverIssued
}

func TestCouponsOverIssueOnlyWhereRacy(t *testing.T) {
	const size, clients, each = 20, 16, 8
	cases := []struct {
		variant    string
		overIssues bool
	}{
		{"naive-race", true},
		{"naive", true},
		{"naive-tx", false},
		{"naive-lock", false},
		{"improved", false},
	}
	tg := startShop(t, Options{Rows: 300, Apps: 50, Reviews: 2000, Products: 40, CacheDelay: 3 * time.Millisecond, Coupons: size})
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			if status, body, _ := do(t, "POST", fmt.Sprintf("%s/coupons/reset?count=%d", tg.URL, size), "", ""); status != 200 {
				t.Fatalf("reset: %d %s", status, body)
			}
			codes := hammer(t, tg.URL, c.variant, clients, each)
			gotSize, issued, over := readStats(t, tg.URL)
			if int64(codes[201]) != issued || codes[201]+codes[409] != clients*each || gotSize != size {
				t.Fatalf("statuses %v, stats say %d issued of %d: every request must be a 201 or a 409, and the 201s the coupons", codes, issued, gotSize)
			}
			if c.overIssues {
				if issued <= size || over < issued-size {
					t.Fatalf("issued %d of %d (over_issued %d): the race should over-issue under %d concurrent clients", issued, size, over, clients)
				}
				return
			}
			if issued != size || over != 0 {
				t.Fatalf("issued %d of %d (over_issued %d); want exactly the event's coupons", issued, size, over)
			}
		})
	}
}

func TestTransactionBeforeCacheExhaustsThePool(t *testing.T) {
	const pool, clients, each = 4, 24, 4
	cases := []struct {
		variant   string
		exhausted bool
	}{
		{"naive-tx", true},
		{"naive", true},
		{"improved", false},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			tg := startShop(t, Options{Rows: 300, Apps: 50, Reviews: 2000, Products: 40, PoolSize: pool, CacheDelay: 15 * time.Millisecond,
				PoolTimeout: 30 * time.Second, Coupons: 1_000_000})
			_, waitsBefore, _ := scrape(t, tg.URL).value("go_sql_wait_count_total", "db_name", "shop")
			done := make(chan map[int]int)
			go func() { done <- hammer(t, tg.URL, c.variant, clients, each) }()
			maxInUse, codes := watchInUse(tg, done)
			e := scrape(t, tg.URL)
			_, waits, _ := e.value("go_sql_wait_count_total", "db_name", "shop")
			_, waited, _ := e.value("go_sql_wait_duration_seconds_total", "db_name", "shop")
			if codes[201] != clients*each {
				t.Fatalf("statuses %v; want every coupon issued", codes)
			}
			if c.exhausted && (waits <= waitsBefore || waited <= 0 || maxInUse != pool) {
				t.Fatalf("wait count %v → %v, waited %vs, at most %d of %d connections in use: want requests waiting on a full pool", waitsBefore, waits, waited, maxInUse, pool)
			}
			if !c.exhausted && (waits != waitsBefore || maxInUse >= pool) {
				t.Fatalf("wait count %v → %v, at most %d of %d connections in use: want no waiting", waitsBefore, waits, maxInUse, pool)
			}
		})
	}
}

// watchInUse samples the pool's in-use count until the load reports done,
// returning the highest count seen and the load's statuses.
func watchInUse(tg *Target, done <-chan map[int]int) (int, map[int]int) {
	most := 0
	for range 10_000_000 {
		select {
		case codes := <-done:
			return most, codes
		default:
		}
		most = max(most, tg.shop.db.Stats().InUse)
		runtime.Gosched()
	}
	return most, <-done
}
