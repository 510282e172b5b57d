package web

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
)

// TestRender checks the shell every page shares: its text escaped, its
// blocks filled, its data unable to end the script element, and a policy
// that runs exactly the shared scripts and the page's own.
func TestRender(t *testing.T) {
	const tmpl = `{{define "style"}}.mine { color: red; }{{end}}` +
		`{{define "header"}}<h1 id="h">{{.Name}}</h1>{{end}}{{define "body"}}<p id="b">{{.Text}}</p>{{end}}`
	view := struct{ Name, Text string }{"shop<img src=x>", `</p><script>alert(1)</script>`}
	cases := []struct {
		name      string
		page      Page
		want, not []string
	}{
		{"a report", Page{Title: "PASS · <b>shop</b>", Generator: "loadlens v1", Footer: "Made by <loadlens>.", Template: tmpl, View: view,
			Data: map[string]string{"name": "</script><script>alert(2)</script>"}, Script: "mine()"},
			[]string{`<title>PASS · &lt;b&gt;shop&lt;/b&gt;</title>`, `<meta name="generator" content="loadlens v1">`,
				`<span class="brand">loadlens</span><h1 id="h">shop&lt;img src=x&gt;</h1></header>`,
				`<p id="b">&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>`, ".mine { color: red; }</style>",
				`\u003c/script\u003e\u003cscript\u003ealert(2)`, "Made by &lt;loadlens&gt;.", "uPlot licence", "<script>mine()</script>"},
			[]string{"<img src=x>", "alert(1)</script>", "connect-src"}},
		{"the dashboard", Page{Title: "live", Template: tmpl, View: view, Script: "live()", ConnectSelf: true},
			[]string{"connect-src &#39;self&#39;", "<script>live()</script>"},
			[]string{`id="loadlens-data"`, `name="generator"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			csp, err := Render(&b, c.page)
			if err != nil {
				t.Fatal(err)
			}
			page := b.String()
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(page, n) {
					t.Errorf("the page has %q", n)
				}
			}
			m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
			if m == nil || html.UnescapeString(m[1]) != csp {
				t.Fatalf("the page's policy %v is not the one returned, %q", m, csp)
			}
			scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
			if want := len(Scripts()) + 1; len(scripts) != want {
				t.Fatalf("%d scripts, want the %d shared ones and the page's own", len(scripts), want-1)
			}
			if want := CSP(c.page.ConnectSelf, append(Scripts(), c.page.Script)...); csp != want {
				t.Errorf("policy %q, want one that runs exactly the page's scripts", csp)
			}
		})
	}
}

func TestRenderBadTemplate(t *testing.T) {
	var b bytes.Buffer
	if _, err := Render(&b, Page{Title: "broken", Template: `{{define "body"}}{{.Missing`}); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Render of a broken template: %v, want an error naming the page", err)
	}
}
