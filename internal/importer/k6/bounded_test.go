package k6

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/testkit"
)

// hostileScripts are k6 scripts an import must refuse in bounded memory,
// made when a test runs.
var hostileScripts = []struct {
	name string
	src  func() string
	want string
}{
	{"a function 1,000 scenarios run", func() string {
		var b strings.Builder
		b.WriteString("import http from 'k6/http';\nexport const options = { scenarios: {")
		for i := range 1000 {
			fmt.Fprintf(&b, "s%d: {executor: 'constant-vus', vus: 1, duration: '1s', exec: 'f'},", i)
		}
		b.WriteString("} };\nexport function f() {\n")
		for i := range 2000 {
			fmt.Fprintf(&b, "  http.get('http://x/%d');\n", i)
		}
		return b.String() + "}\n"
	}, "the script's scenarios make more than 10,000 steps; a test file holds about 5,000"},
	{"a stream written 1,000 times by each of 1,000 helper calls", func() string {
		var b strings.Builder
		b.WriteString("import grpc from 'k6/net/grpc';\nconst c = new grpc.Client();\nfunction w(s) {\n")
		for range 1000 {
			b.WriteString("  s.write({a: 1});\n")
		}
		b.WriteString("}\nexport default function() {\n  c.connect('h:1');\n  const s = new grpc.Stream(c, 'a.B/C');\n")
		for range 1000 {
			b.WriteString("  w(s);\n")
		}
		return b.String() + "}\n"
	}, "more than 10,000 steps"},
	{"100,000 requests", func() string {
		var b strings.Builder
		b.WriteString("import http from 'k6/http';\nexport default function() {\n")
		for i := range 100000 {
			fmt.Fprintf(&b, "  http.get('http://x/%d');\n", i)
		}
		return b.String() + "}\n"
	}, "more than 10,000 steps"},
	{"200,000 nested brackets", func() string {
		return "import http from 'k6/http';\nexport default function() { http.get('http://x/', " +
			strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + "); }\n"
	}, "too many nested expressions"},
}

// TestImportK6HostileScriptsAreBounded: a short script whose function a
// thousand scenarios run (2 million steps from 125 KB: 1.2 GB and 5 s
// before), a long one, and a deeply nested one are refused, each in a
// process that holds little memory.
func TestImportK6HostileScriptsAreBounded(t *testing.T) {
	if arg, ok := testkit.PeakChild(); ok {
		for _, h := range hostileScripts {
			if h.name == arg {
				_, err := Import([]byte(h.src()), "hostile.js")
				if err == nil || !strings.Contains(err.Error(), h.want) {
					t.Fatalf("error %v, want %q", err, h.want)
				}
			}
		}
		testkit.ReportPeak()
		return
	}
	for _, h := range hostileScripts {
		t.Run(h.name, func(t *testing.T) {
			// 256 MiB: the 100,000-request script peaks at 160 MiB alone and
			// reached 206 MiB beside other tests (its GC runs later on a busy
			// machine); the unbounded import held 1.2 GB.
			if peak := testkit.PeakMemory(t, h.name, time.Minute); peak > 256<<20 {
				t.Errorf("the import held %d MiB at its peak, want at most 256 MiB", peak>>20)
			}
		})
	}
}
