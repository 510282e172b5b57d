package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Endpoint is one request of a case's load, in both forms the harness
// needs: loadlens's template and a generator for its own client.
type Endpoint struct {
	Method  string
	Route   string                    // the server's route template, also loadlens's endpoint name: /apps/{id}/reviews
	Path    string                    // loadlens's path template: /apps/{{ randInt(1, 2000) }}/reviews
	Query   map[string]string         // loadlens's query templates
	Gen     func(r *rand.Rand) string // a concrete path and query, drawn as loadlens draws them
	Headers map[string]string
}

// Scenario is one endpoint at a share of the case's rate.
type Scenario struct {
	Name     string
	Endpoint Endpoint
	Share    float64 // of the load's rate; the shares of a load add up to 1
}

// Load is an open-model load: the rate ramps from Start to Peak over
// Ramp, then holds Peak for Hold (iterations per second, one request each).
type Load struct {
	Scenarios   []Scenario
	Start, Peak float64
	Ramp, Hold  time.Duration
	Timeout     time.Duration
}

// Duration is the load's length.
func (l Load) Duration() time.Duration { return l.Ramp + l.Hold }

// Shortened returns l with ramp and hold cut to at most ramp and hold.
func (l Load) Shortened(ramp, hold time.Duration) Load {
	l.Ramp = min(l.Ramp, ramp)
	l.Hold = min(l.Hold, hold)
	return l
}

// single is a load of one endpoint.
func single(e Endpoint) []Scenario { return []Scenario{{Name: "main", Endpoint: e, Share: 1}} }

// pickOf draws one of vs, as loadlens's pick() does.
func pickOf(r *rand.Rand, vs ...string) string { return vs[r.IntN(len(vs))] }

// idIn draws an integer in [1, n], as loadlens's randInt(1, n) does.
func idIn(r *rand.Rand, n int) int { return 1 + r.IntN(n) }

// categories are the app-store categories both services know.
var categories = []string{"GAME", "EDU", "SOCIAL", "MUSIC", "TOOLS"}

const pickCategory = `{{ pick("GAME", "EDU", "SOCIAL", "MUSIC", "TOOLS") }}`

// appEndpoint is a truthapp route under /apps/{id}, suffix "" or "/reviews" etc.
func appEndpoint(suffix string, apps int) Endpoint {
	return Endpoint{
		Method: "GET", Route: "/apps/{id}" + suffix,
		Path: fmt.Sprintf("/apps/{{ randInt(1, %d) }}%s", apps, suffix),
		Gen:  func(r *rand.Rand) string { return fmt.Sprintf("/apps/%d%s", idIn(r, apps), suffix) },
	}
}

// topEndpoint is truthapp's heavy join, by category.
func topEndpoint() Endpoint {
	return Endpoint{
		Method: "GET", Route: "/apps/top", Path: "/apps/top", Query: map[string]string{"category": pickCategory},
		Gen: func(r *rand.Rand) string { return "/apps/top?category=" + pickOf(r, categories...) },
	}
}

// shopFirstPage is the demo shop's first page in a variant.
func shopFirstPage(variant string) Endpoint {
	return Endpoint{
		Method: "GET", Route: "/apps/first-page/{category}", Path: "/apps/first-page/" + pickCategory,
		Gen:     func(r *rand.Rand) string { return "/apps/first-page/" + pickOf(r, categories...) },
		Headers: map[string]string{"X-Variant": variant},
	}
}

// shopProducts is the demo shop's product page in a variant.
func shopProducts(variant string) Endpoint {
	return Endpoint{
		Method: "GET", Route: "/products/{id}", Path: "/products/{{ randInt(1, 10000) }}",
		Gen:     func(r *rand.Rand) string { return fmt.Sprintf("/products/%d", idIn(r, 10000)) },
		Headers: map[string]string{"X-Variant": variant},
	}
}

// shopCoupons issues a coupon in a variant, each to a new user.
func shopCoupons(variant string) Endpoint {
	return Endpoint{
		Method: "POST", Route: "/coupons/issue", Path: "/coupons/issue?user=vu{{ vu }}-{{ iteration }}",
		Gen:     func(r *rand.Rand) string { return fmt.Sprintf("/coupons/issue?user=h%d", r.Uint64()) },
		Headers: map[string]string{"X-Variant": variant},
	}
}

// nginxRoot is nginx's one fixed answer.
func nginxRoot() Endpoint {
	return Endpoint{Method: "GET", Route: "/", Path: "/", Gen: func(*rand.Rand) string { return "/" }}
}
