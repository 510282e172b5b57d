package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// FuzzParse checks that Parse never panics, that every error it returns has
// a position, and that a plan it accepts is usable.
func FuzzParse(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.yaml")
	for _, path := range examples {
		if b, err := os.ReadFile(path); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"",
		head + getX,
		head + "      - post: /x\n        json: {a: [1, {b: \"{{ vu }}\"}]}\n",
		head + "      - get: \"/\\u00e9/{{ nope() }}\"\n",
		head + "      - think: 1s..3x\n",
		"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c, *c]\n",
		"x: &x {<<: *x}\n",
		"scenarios:\n  s: {<<: [*a, 1]}\n",
		"thresholds:\n  'http_req_duration{endpoint:\"GET /\"}': [\"p(95) <\"]\n",
		"base_url: http://h\nscenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - post: /x\n        body: |\n          {{ a\n",
		"? [a]\n: 1\n",
		"- - - -\n",
		"a: !!binary aGk=\n",
		"\xef\xbb\xbf" + head + getX,
		"x-a: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n",
		"headers: {Authorization: Bearer abc, X-Api-Key: 'k''1'}\n" + head + getX,
		"x-t: &t |\n  abc\nheaders:\n  X-Token: *t\n  Cookie: a=1;\n    b=2\n" + head + getX,
		head + "      - get: /x\n        headers: {<<: {X-Secret: \"s\\\"q\"}, Accept: x}\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir() // relative CSV paths resolve to an empty directory
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse(filepath.Join(dir, "fuzz.yaml"), []byte(src), noEnv)
		if err == nil {
			if p == nil || len(p.Scenarios) == 0 || len(p.Layout.Scenarios) != len(p.Scenarios) {
				t.Fatalf("accepted a plan with no scenarios or a bad layout: %+v", p)
			}
			if string(p.Source) != src { // credentials were redacted: what is stored must still be a test
				again, err := Parse(filepath.Join(dir, "fuzz.yaml"), p.Source, noEnv)
				if err != nil || len(again.Scenarios) != len(p.Scenarios) {
					t.Fatalf("the redacted source does not parse to the same test: %v\n%s", err, p.Source)
				}
			}
			return
		}
		if p != nil {
			t.Fatal("returned both a plan and an error")
		}
		var es yamldoc.Errors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Fatalf("error is %T, want non-empty Errors: %v", err, err)
		}
		for _, e := range es {
			if e.Line < 1 || e.Column < 1 {
				t.Errorf("error without a position: %q", e.Error())
			}
			if strings.TrimSpace(e.Msg) == "" {
				t.Errorf("error without a message at %d:%d", e.Line, e.Column)
			}
		}
	})
}
