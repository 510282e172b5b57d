package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/store"
)

// TestErrorBodiesReachSummaryAndRunDB: what a failing target said (a
// Spring JSON error, plain text, binary, a huge page, a new body per
// request) reaches summary.json and run.db, bounded: at most 3 messages
// per endpoint and kind, each at most 512 bytes of the body, the rest
// counted as others; a success's body never does.
func TestErrorBodiesReachSummaryAndRunDB(t *testing.T) {
	hikari := "HikariPool-1 - Connection is not available, request timed out after 30000ms"
	var n atomic.Int64
	mux := http.NewServeMux()
	fail := func(status int, ctype, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("GET /json", fail(500, "application/json", `{"timestamp":"2026-11-30T10:00:00.000+00:00","status":500,"error":"Internal Server Error","message":"`+hikari+`","path":"/json"}`))
	mux.HandleFunc("GET /text", fail(503, "text/plain", "upstream connect error or disconnect/reset before headers\n"))
	mux.HandleFunc("GET /binary", fail(500, "application/octet-stream", "\x00\x1b[2J\xff"))
	mux.HandleFunc("GET /huge", fail(500, "text/html", strings.Repeat("<p>trace</p>", 200_000)))
	mux.HandleFunc("GET /unique", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, fmt.Sprintf("request %d failed", n.Add(1)), http.StatusInternalServerError)
	})
	mux.HandleFunc("GET /ok", fail(200, "application/json", `{"message":"all good"}`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	const iterations = 40
	test := writeTest(t, dir, "t.yaml", fmt.Sprintf(`
base_url: %s
scenarios:
  s:
    model: iterations
    vus: 2
    iterations: %d
    flow:
      - get: /json
      - get: /text
      - get: /binary
      - get: /huge
      - get: /unique
      - get: /ok
`, srv.URL, iterations))
	r := loadlens(t, dir, "run", "--quiet", "--results", "results", test)
	if r.code != 0 && r.code != 99 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	run := onlyRunDir(t, filepath.Join(dir, "results"))
	fromJSON := summaryMessages(t, filepath.Join(run, "summary.json"))
	fromDB := runDBMessages(t, filepath.Join(run, "run.db"))
	cases := []struct {
		endpoint string
		want     string // the only message; "" for none; "…" at its end: a prefix
		kept     int    // messages kept
		others   int64
	}{
		{"GET /json", "500 Internal Server Error: " + hikari, 1, 0},
		{"GET /text", "503 Service Unavailable: upstream connect error or disconnect/reset before headers", 1, 0},
		{"GET /binary", `500 Internal Server Error: \x00\x1b[2J\xff`, 1, 0},
		{"GET /huge", "500 Internal Server Error: <p>trace</p><p>trace</p>…", 1, 0},
		{"GET /unique", "", 3, iterations - 3},
		{"GET /ok", "", 0, 0},
	}
	for _, c := range cases {
		for _, src := range []struct {
			name string
			got  map[string]said
		}{{"summary.json", fromJSON}, {"run.db", fromDB}} {
			t.Run(c.endpoint+"/"+src.name, func(t *testing.T) {
				g := src.got[c.endpoint]
				if len(g.messages) != c.kept || g.others != c.others {
					t.Fatalf("%d messages and %d others %q; want %d and %d", len(g.messages), g.others, g.messages, c.kept, c.others)
				}
				for _, m := range g.messages {
					if len(m) > 512+len("500 Internal Server Error: ") || !utf8.ValidString(m) || strings.ContainsAny(m, "\x00\x1b\n") {
						t.Errorf("message of %d bytes not bounded or clean: %.100q", len(m), m)
					}
				}
				prefix, cut := strings.CutSuffix(c.want, "…")
				if c.want != "" && (!strings.HasPrefix(g.messages[0], prefix) || cut != strings.HasSuffix(g.messages[0], "…") || !cut && g.messages[0] != c.want) {
					t.Errorf("message %.120q; want %q", g.messages[0], c.want)
				}
			})
		}
	}
}

// said is an endpoint's kept messages (of its one failure kind) and the
// failures none of them counts.
type said struct {
	messages []string
	others   int64
}

func summaryMessages(t *testing.T, path string) map[string]said {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Loadlens struct {
			Endpoints []struct {
				Endpoint string `json:"endpoint"`
				Errors   []struct {
					Messages []struct {
						Message string `json:"message"`
					} `json:"messages"`
					Others int64 `json:"others"`
				} `json:"errors"`
			} `json:"endpoints"`
		} `json:"loadlens"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string]said{}
	for _, e := range s.Loadlens.Endpoints {
		var got said
		for _, g := range e.Errors {
			for _, m := range g.Messages {
				got.messages = append(got.messages, m.Message)
			}
			got.others += g.Others
		}
		out[e.Endpoint] = got
	}
	return out
}

func runDBMessages(t *testing.T, path string) map[string]said {
	t.Helper()
	rd, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	run, err := rd.Run()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]said{}
	for i, e := range run.Endpoints {
		var got said
		for _, g := range e.Errors {
			for _, s := range g.Samples {
				got.messages = append(got.messages, s.Message)
			}
			got.others += g.Others()
		}
		out[run.Layout.Endpoints[i].Name] = got
	}
	return out
}
