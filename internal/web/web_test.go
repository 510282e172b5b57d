package web

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
)

func TestCSP(t *testing.T) {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	cases := []struct {
		name        string
		connectSelf bool
		scripts     []string
		want, not   []string
	}{
		{"report", false, []string{"a()", "b()"}, []string{"default-src 'none'", hash("a()"), hash("b()")}, []string{"connect-src", "unsafe-inline' 'sha", "script-src 'unsafe"}},
		{"dashboard", true, []string{"a()"}, []string{"connect-src 'self'", hash("a()")}, []string{hash("b()")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CSP(c.connectSelf, c.scripts...)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("CSP %q lacks %s", got, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("CSP %q has %s", got, n)
				}
			}
		})
	}
}

func TestAssetsAreEmbedded(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"uPlot", Scripts()[0], "uPlot (v" + UPlotVersion + ")"},
		{"panels", Scripts()[1], "LL.timePanels"},
		{"findings", Scripts()[2], "LL.drawFindings"},
		{"server charts", Scripts()[3], "LL.ObservedView"},
		{"styles", css(), ".u-legend"},
		{"licence", uplotLicenseText(), "Leon Sorokin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(c.text, c.want) {
				t.Errorf("%s lacks %q", c.name, c.want)
			}
			if strings.Contains(strings.ToLower(c.text), "</script") {
				t.Errorf("%s contains </script, which would end its inline <script> early", c.name)
			}
		})
	}
}
