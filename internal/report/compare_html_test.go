package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/web"
)

func renderComparePage(t *testing.T, r *compare.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCompareHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pageRuns decodes the series embedded in the page.
func pageRuns(t *testing.T, page string) []compareSeries {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="loadlens-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page embeds no data block")
	}
	var d struct{ Runs []compareSeries }
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("embedded data: %v", err)
	}
	return d.Runs
}

func TestCompareHTMLPage(t *testing.T) {
	page := renderComparePage(t, comparison(t, "compare"))
	for _, want := range []string{"Run comparison", "GET /products/{id}", "POST /cart", "slower &lt;at&gt; 80 req/s",
		"~ [", "not the same load", "Load and throughput", "Throughput kept up with the load", "Permission is hereby granted"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The slower run's p95: its change and interval, unmarked because it
	// ran at another load.
	if !regexp.MustCompile(`<td class="num">&#43;3\d\.\d% \[&#43;\d+\.\d%, &#43;\d+\.\d%\]</td>`).MatchString(page) {
		t.Errorf("the page lacks the slower run's p95 change with its interval")
	}
	runs := pageRuns(t, page)
	if len(runs) != 3 || len(runs[0].T) != 38 || runs[0].First != 5 || runs[0].Last != 34 || runs[2].Comparable {
		t.Fatalf("embedded runs %d, first with %d seconds compared %d–%d; want 3 runs of 38 s, 5–34, the third not comparable",
			len(runs), len(runs[0].T), runs[0].First, runs[0].Last)
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("the page has no Content-Security-Policy")
	}
	policy := html.UnescapeString(csp[1])
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if want := len(web.Scripts()) + 1; len(scripts) != want {
		t.Fatalf("%d inline scripts, want %d (the shared ones, then compare's)", len(scripts), want)
	}
	for i, s := range scripts {
		sum := sha256.Sum256([]byte(s[1]))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(policy, h) {
			t.Errorf("script %d's hash is not in the policy %q", i, policy)
		}
	}
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`).FindString(page); m != "" {
		t.Errorf("the page refers to an outside resource: %s", m)
	}
}

func TestCompareHTMLEscapesRunAndEndpointNames(t *testing.T) {
	const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`
	r := comparison(t, "compare")
	r.Runs[0].Name = evil
	r.Runs[1].Note = evil
	r.Rows[1].Name = "GET /" + evil
	r.Scaling[0].Text = evil
	page := renderComparePage(t, r)
	for _, raw := range []string{"<script>alert", "<img src=x"} {
		if strings.Contains(page, raw) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	if got := pageRuns(t, page)[0].Name; got != evil {
		t.Errorf("the embedded name %q does not decode to the run's name", got)
	}
}

func TestCompareHTMLMarksWorseAndBetterAtTheSameLoad(t *testing.T) {
	page := renderComparePage(t, comparison(t, "compare-marks"))
	for _, want := range []string{`<td class="num better">-2`, `<td class="num worse">&#43;3`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestEveryCompareOutputHasTheSuccessfulRate: req/s counts failed requests
// too, so every output shows the successful requests per second beside it,
// with its change and interval.
func TestEveryCompareOutputHasTheSuccessfulRate(t *testing.T) {
	r := comparison(t, "compare")
	tests := []struct {
		name  string
		write func(*bytes.Buffer) error
		want  *regexp.Regexp // the row, with B's change and interval
	}{
		{"text", func(b *bytes.Buffer) error { return WriteCompareText(b, r) },
			regexp.MustCompile(`(?m)^  successful req/s +49\.5 +49\.7 +~ \[`)},
		{"markdown", func(b *bytes.Buffer) error { return WriteCompareMarkdown(b, r) },
			regexp.MustCompile(`\| successful req/s \| 49\.5 \| 49\.7 \| \\~ \\\[`)},
		{"html", func(b *bytes.Buffer) error { return WriteCompareHTML(b, r) },
			regexp.MustCompile(`<td class="mono">successful req/s</td><td class="num">49\.5</td><td class="num">49\.7</td><td class="num">~ \[`)},
		{"json", func(b *bytes.Buffer) error { return json.NewEncoder(b).Encode(r) },
			regexp.MustCompile(`"metric":"successful req/s","unit":"req/s","groups":\[\{"has":true,"value":49\.5`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.write(&b); err != nil {
				t.Fatal(err)
			}
			if !tt.want.MatchString(b.String()) {
				t.Errorf("no successful req/s row matching %s in:\n%s", tt.want, b.String())
			}
		})
	}
}
