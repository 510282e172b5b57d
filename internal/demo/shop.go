// Package demo is loadlens's built-in target: a small shop service on
// 127.0.0.1 whose endpoints reproduce the field reports' workloads, so the
// tool can be tried, tested and demonstrated without any other software.
package demo

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Categories are the app-store categories the first page lists.
var Categories = []string{"GAME", "EDU", "SOCIAL", "MUSIC", "TOOLS"}

type app struct {
	ID       int     `json:"id"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Rating   float64 `json:"rating"`
	reviews  []int8
}

// Shop is the demo service's state. It is safe for concurrent use.
type Shop struct {
	apps     []app
	products int
	coupons  atomic.Int64 // coupons left in the time-deal event
	issued   atomic.Int64
	feedMu   sync.RWMutex
	feed     []string
	tokens   sync.Map // token → user
}

// NewShop builds a shop with a deterministic data set: apps with reviews,
// products, and the coupons of one event.
func NewShop(apps, products int, coupons int64) *Shop {
	r := rand.New(rand.NewPCG(1, 2))
	s := &Shop{products: products}
	for i := range apps {
		a := app{ID: i + 1, Name: fmt.Sprintf("app-%d", i+1), Category: Categories[i%len(Categories)]}
		for range 20 + r.IntN(40) {
			a.reviews = append(a.reviews, int8(1+r.IntN(5)))
		}
		s.apps = append(s.apps, a)
	}
	s.coupons.Store(coupons)
	return s
}

// Handler returns the shop's HTTP routes.
func (s *Shop) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /apps/first-page", s.firstPage)
	mux.HandleFunc("GET /apps/first-page/{category}", s.firstPage)
	mux.HandleFunc("GET /products/{id}", s.product)
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("GET /me", s.me)
	mux.HandleFunc("POST /coupons/issue", s.issueCoupon)
	mux.HandleFunc("GET /feed", s.readFeed)
	mux.HandleFunc("POST /feed", s.writeFeed)
	return mux
}

// firstPage ranks apps by average rating the naive way: every request
// aggregates every review, like the GROUP BY of case study 1.
func (s *Shop) firstPage(w http.ResponseWriter, r *http.Request) {
	cat := strings.ToUpper(r.PathValue("category"))
	type ranked struct {
		app
		Rating float64 `json:"rating"`
	}
	var list []ranked
	for _, a := range s.apps {
		if cat != "" && a.Category != cat {
			continue
		}
		sum := 0
		for _, v := range a.reviews {
			sum += int(v)
		}
		list = append(list, ranked{a, float64(sum) / float64(len(a.reviews))})
	}
	if cat != "" && len(list) == 0 {
		http.Error(w, `{"error":"unknown category"}`, http.StatusNotFound)
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Rating > list[j].Rating })
	writeJSON(w, http.StatusOK, map[string]any{"category": cat, "apps": list[:min(20, len(list))]})
}

func (s *Shop) product(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 1 || id > s.products {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "no such product"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "name": fmt.Sprintf("product-%d", id), "price": 1000 + id%97*10})
}

func (s *Shop) login(w http.ResponseWriter, r *http.Request) {
	var in struct {
		User     string `json:"user"`
		Password string `json:"password"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.User == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want {\"user\", \"password\"}"})
		return
	}
	token := fmt.Sprintf("tok-%s-%d", in.User, rand.Uint32())
	s.tokens.Store(token, in.User)
	writeJSON(w, http.StatusOK, map[string]any{"token": token, "user": in.User})
}

func (s *Shop) me(w http.ResponseWriter, r *http.Request) {
	user, ok := s.tokens.Load(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "bad token"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": user})
}

// issueCoupon hands out one coupon with an atomic decrement, so it never
// issues more than the event has.
func (s *Shop) issueCoupon(w http.ResponseWriter, r *http.Request) {
	if left := s.coupons.Add(-1); left < 0 {
		s.coupons.Add(1)
		writeJSON(w, http.StatusConflict, map[string]any{"error": "sold out", "remaining": 0, "issued": s.issued.Load()})
		return
	}
	issued := s.issued.Add(1)
	writeJSON(w, http.StatusOK, map[string]any{"issued": issued, "remaining": s.coupons.Load()})
}

func (s *Shop) readFeed(w http.ResponseWriter, r *http.Request) {
	s.feedMu.RLock()
	n := len(s.feed)
	page := append([]string(nil), s.feed[max(0, n-20):]...)
	s.feedMu.RUnlock()
	writeJSON(w, http.StatusOK, map[string]any{"posts": page, "total": n})
}

func (s *Shop) writeFeed(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Text string `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Text == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want {\"text\"}"})
		return
	}
	s.feedMu.Lock()
	s.feed = append(s.feed, in.Text)
	n := len(s.feed)
	s.feedMu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"id": n})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
