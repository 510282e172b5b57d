package compare

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/web"
)

func renderPage(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pageRuns decodes the series embedded in the page.
func pageRuns(t *testing.T, page string) []pageSeries {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="loadlens-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page embeds no data block")
	}
	var d struct{ Runs []pageSeries }
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("embedded data: %v", err)
	}
	return d.Runs
}

func TestHTMLPage(t *testing.T) {
	page := renderPage(t, goldenReport(t))
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

func TestHTMLEscapesRunAndEndpointNames(t *testing.T) {
	const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`
	a := synth{seed: 1, model: "arrival-rate", load: ramp(20, 2, 10, 1)}.input(evil)
	a.Run.Layout.Endpoints[0].Name = "GET /" + evil
	b := synth{seed: 2, model: "arrival-rate", load: ramp(20, 2, 10, 1)}.input("b")
	b.Run.Layout.Endpoints[0].Name = "GET /" + evil
	r, err := Compare([]Input{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := renderPage(t, r)
	for _, raw := range []string{"<script>alert", "<img src=x"} {
		if strings.Contains(page, raw) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	if got := pageRuns(t, page)[0].Name; got != evil {
		t.Errorf("the embedded name %q does not decode to the run's name", got)
	}
}

func TestHTMLMarksWorseAndBetterAtTheSameLoad(t *testing.T) {
	base := synth{seed: 1, model: "arrival-rate", load: hold100, slow: 1.3}.input("slow")
	fast := synth{seed: 2, model: "arrival-rate", load: hold100}.input("fast")
	slower := synth{seed: 3, model: "arrival-rate", load: hold100, slow: 1.7}.input("slower")
	r, err := Compare([]Input{base, fast, slower}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	page := renderPage(t, r)
	for _, want := range []string{`<td class="num better">-2`, `<td class="num worse">&#43;3`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
