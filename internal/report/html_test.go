package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/metrics/metricstest"
	"github.com/loadlens/loadlens/internal/series"
)

func renderHTML(t *testing.T, in *Input) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pageData decodes the JSON embedded in a report.
func pageData(t *testing.T, page string) htmlData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="loadlens-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("report.html embeds no data block")
	}
	var d htmlData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("embedded data: %v", err)
	}
	return d
}

func TestHTMLReport(t *testing.T) {
	in := fixture(t)
	in.Host, in.CPUs, in.TestFile, in.TestSource = "box", 8, "shop.yaml", []byte("name: shop\n")
	in.GeneratorCPU = map[int]float64{0: 0.5, 2: 2}
	page := renderHTML(t, in)
	for _, want := range []string{
		`<span id="verdict" class="verdict fail">FAIL</span>`, "browse · GET /apps/first-page", "buy · POST /coupons/issue",
		"409 Conflict", "context deadline exceeded", "$.remaining &gt;= 0", "p(99)=100ms", "name: shop", "box",
		"iterations were dropped", "users.csv ran out", "Permission is hereby granted",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	d := pageData(t, page)
	if len(d.Frames) != 3 || len(d.Frames[0].Endpoints) != 3 || len(d.Meta.Endpoints) != 3 {
		t.Fatalf("embedded data: %d frames, %d endpoints per frame, %d endpoints in meta; want 3, 3, 3",
			len(d.Frames), len(d.Frames[0].Endpoints), len(d.Meta.Endpoints))
	}
	cpus := []any{d.Frames[0].CPU, d.Frames[1].CPU, d.Frames[2].CPU}
	if d.Frames[0].CPU == nil || *d.Frames[0].CPU != 6.3 || d.Frames[1].CPU != nil || *d.Frames[2].CPU != 25 {
		t.Errorf("generator CPU of the frames = %v, want 6.3%%, unknown, 25%% (of 8 CPUs)", cpus)
	}
	if len(d.Spectra) != 4 || d.Spectra[0].Count != 300 || d.Spectra[0].Percentiles[len(d.Spectra[0].Percentiles)-1] != 100 {
		t.Errorf("spectra: %d, first of %d samples; want all endpoints + 3, 300 samples, ending at 100%%", len(d.Spectra), d.Spectra[0].Count)
	}
}

// TestHTMLRunsOnlyItsOwnScripts checks that the Content-Security-Policy
// names the hash of every script in the page, so they run, and that the
// page loads nothing from anywhere.
func TestHTMLRunsOnlyItsOwnScripts(t *testing.T) {
	page := renderHTML(t, fixture(t))
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("report.html has no Content-Security-Policy")
	}
	policy := html.UnescapeString(csp[1])
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if len(scripts) != 5 {
		t.Fatalf("%d inline scripts, want 5 (uPlot, charts, findings, server charts, report)", len(scripts))
	}
	for i, s := range scripts {
		sum := sha256.Sum256([]byte(s[1]))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, h) {
			t.Errorf("script %d's hash %s is not in the policy %q", i, h, policy)
		}
	}
	if !strings.HasPrefix(policy, "default-src 'none'") {
		t.Errorf("policy %q does not start by forbidding everything", policy)
	}
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).FindString(page); m != "" {
		t.Errorf("report.html refers to an outside resource: %s", m)
	}
}

func TestHTMLEscapesWhatCameFromTheTarget(t *testing.T) {
	const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`
	cases := []struct {
		name  string
		setup func(in *Input)
	}{
		{"endpoint name", func(in *Input) { in.Run.Layout.Endpoints[0].Name = "GET /" + evil }},
		{"error message", func(in *Input) {
			in.Run.Endpoints[2].Errors[0].Samples[0].Message = "500 " + evil
		}},
		{"check name", func(in *Input) { in.Run.Layout.Checks[0].Name = evil }},
		{"test source", func(in *Input) { in.TestSource = []byte("name: '" + evil + "'\n</script><script>alert(3)</script>") }},
		{"notice", func(in *Input) { in.Notices = []string{evil} }},
		{"command line", func(in *Input) { in.Args = []string{"loadlens", "run", "http://x/" + evil} }},
		{"series label", func(in *Input) {
			in.Series = series.Set{observed("go_sql_in_use_connections", series.Gauge, "app", []series.Label{{Name: "db_name", Value: evil}}, 1, 2)}
		}},
		{"finding", func(in *Input) {
			in.Findings[0].Parts = []diagnose.Segment{{Text: "DB pool exhausted (", Figure: -1}, {Name: evil, Figure: -1}, {Text: ")", Figure: -1}}
			in.Findings[0].Evidence[0].Source = evil
		}},
		{"scrape failure", func(in *Input) { in.Notices = []string{"scraping " + evil} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := fixture(t)
			c.setup(in)
			page := renderHTML(t, in)
			for _, raw := range []string{"<script>alert", "<img src=x", "</script><script>"} {
				if strings.Contains(page, raw) {
					t.Errorf("report.html contains %q unescaped", raw)
				}
			}
			if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") && !strings.Contains(page, `\u003cscript\u003ealert(1)`) {
				t.Errorf("the %s does not appear escaped", c.name)
			}
			pageData(t, page) // the data block still decodes
		})
	}
}

// longRun is a synthetic run of secs seconds over n endpoints, each
// answering about 50 requests a second with a spread of durations and a
// few failures with distinct messages.
func longRun(t testing.TB, secs, n int) *Input {
	layout := metricstest.Layout(n)
	run := metrics.NewRun(layout)
	cpu := map[int]float64{}
	metricstest.Seconds(layout, secs, func(snap *metrics.Snapshot) {
		run.Add(snap)
		cpu[snap.Second] = 0.4
	})
	run.SetElapsed(time.Duration(secs) * time.Second)
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return &Input{Name: "long", Dir: "results/long", Status: "completed", Version: "test", Start: start,
		End: start.Add(time.Duration(secs) * time.Second), Run: run, Host: "box", CPUs: 8, GeneratorCPU: cpu}
}

func TestHTMLOfALongRunIsSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10-minute run")
	}
	in := longRun(t, 600, 20)
	in.Series = longSeries(600, 50)
	page := renderHTML(t, in)
	const limit = 5 << 20
	t.Logf("report.html of 10 minutes × 20 endpoints × 50 series: %d bytes", len(page))
	if len(page) > limit {
		t.Fatalf("report.html of 10 minutes × 20 endpoints × 50 series is %d bytes, over %d", len(page), limit)
	}
	d := pageData(t, page)
	if len(d.Frames) != 600 || len(d.Spectra) != 21 || len(d.Observed.New) != 50 {
		t.Fatalf("%d frames, %d spectra and %d series, want 600, 21 and 50", len(d.Frames), len(d.Spectra), len(d.Observed.New))
	}
	if n := len(d.Observed.Points[0].Secs); n != 600 {
		t.Errorf("a series scraped every second of 10 minutes embeds %d points, want all 600", n)
	}
}

// longSeries is n series scraped every second for secs seconds: a pool,
// CPU and memory per target, noisy values with 6 significant digits.
func longSeries(secs, n int) series.Set {
	names := []string{"hikaricp_connections_active", "hikaricp_connections_idle", "hikaricp_connections_pending",
		"hikaricp_connections_max", "process_cpu_usage", "jvm_memory_used_bytes", "http_server_requests_seconds_count"}
	set := series.Set{}
	for i := range n {
		target := fmt.Sprintf("app-%d", i/len(names))
		s := &series.Series{Name: names[i%len(names)], Kind: series.Gauge,
			Labels: []series.Label{{Name: "instance", Value: target + ":8080"}, {Name: "role", Value: "app"}, {Name: "target", Value: target}}}
		for sec := range secs {
			s.Points = append(s.Points, series.Point{Sec: sec, Value: 1e3 * (1 + math.Sin(float64(sec*(i+1))/37))})
		}
		set = append(set, s)
	}
	return set
}
