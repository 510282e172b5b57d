package demo

import (
	"embed"
	"strings"
)

//go:embed tests/quick.yaml tests/naive.yaml tests/improved.yaml
var testFiles embed.FS

// placeholderURL is the shop address written in the embedded tests.
const placeholderURL = "http://127.0.0.1:8080"

// embedded returns an embedded test pointed at baseURL: every occurrence of
// the placeholder, so base_url and the observe target move together.
func embedded(name, baseURL string) []byte {
	b, err := testFiles.ReadFile("tests/" + name)
	if err != nil {
		panic("demo: embedded test " + name + " is missing: " + err.Error()) // a build mistake, caught by the package's tests
	}
	return []byte(strings.ReplaceAll(string(b), placeholderURL, baseURL))
}

// QuickTest returns the short single-run demo test, pointed at baseURL.
func QuickTest(baseURL string) []byte { return embedded("quick.yaml", baseURL) }

// Session is the scripted `loadlens demo`: the same load against the naive
// variant, then the improved one, on one shop.
type Session struct {
	Header string       // the request header the tests set to pick the variant: X-Variant
	Runs   []SessionRun // in order: naive, then improved
	Fixes  []Fix        // the endpoints whose before/after figures to print, with what changed
}

// SessionRun is one run of the session.
type SessionRun struct {
	Name    string  // the test's name, which names its run directory
	Variant Variant // the X-Variant value the test sends
	File    string  // the embedded file, e.g. "naive.yaml"
}

// Test returns the run's test file with the shop's address in place.
func (r SessionRun) Test(baseURL string) []byte { return embedded(r.File, baseURL) }

// Fix is one endpoint of the session and the change between its variants,
// for lines like "first page: p95 2.0 s → 2.7 ms, errors 52 % → 0 % (a
// precomputed ranking table)".
type Fix struct {
	Scenario  string // the scenario in both test files
	Endpoint  string // the endpoint as the summary names it, e.g. "GET /products/{id}"
	Title     string // a short name for the line: "first page"
	CaseStudy int    // the field report it reproduces (shared/case-studies.md)
	Naive     string // what the naive variant does
	Improved  string // what the improved variant does instead
}

// ScriptedSession describes the session that `loadlens demo` runs.
func ScriptedSession() Session {
	return Session{
		Header: VariantHeader,
		Runs: []SessionRun{
			{Name: "demo-naive", Variant: Naive, File: "naive.yaml"},
			{Name: "demo-improved", Variant: Improved, File: "improved.yaml"},
		},
		Fixes: []Fix{
			{Scenario: "first_page", Endpoint: "GET /apps/first-page/{category}", Title: "first page", CaseStudy: 1,
				Naive: "joins every app with all its reviews and groups them per request", Improved: "reads a precomputed ranking table, rebuilt periodically"},
			{Scenario: "products", Endpoint: "GET /products/{id}", Title: "product page", CaseStudy: 2,
				Naive: "reads the database on every request", Improved: "a look-aside cache in front of the database"},
			{Scenario: "coupons", Endpoint: "POST /coupons/issue", Title: "coupon issue", CaseStudy: 5,
				Naive:    "holds a pooled connection while a slow cache answers, and decrements by read-then-write",
				Improved: "the transaction only after the cache, a queue drained in batches, and an atomic decrement"},
			{Scenario: "coupon_audit", Endpoint: "GET /coupons/stats", Title: "coupon audit", CaseStudy: 5,
				Naive: "over-issues: more coupons than the event has", Improved: "never more coupons than available"},
		},
	}
}
