package yamldoc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	yamlparser "github.com/goccy/go-yaml/parser"
	"github.com/loadlens/loadlens/internal/testkit"
)

// astDepth is the nesting of collections in a parsed YAML node, counted as
// the scanner counts: each mapping entry and each sequence item is a level.
func astDepth(n ast.Node) int {
	deepest := 0
	switch v := n.(type) {
	case *ast.MappingNode:
		for _, mv := range v.Values {
			deepest = max(deepest, astDepth(mv))
		}
		return deepest
	case *ast.MappingValueNode:
		return 1 + astDepth(v.Value)
	case *ast.SequenceNode:
		for _, e := range v.Values {
			deepest = max(deepest, astDepth(e))
		}
		return 1 + deepest
	case *ast.AnchorNode:
		return astDepth(v.Value)
	case *ast.TagNode:
		return astDepth(v.Value)
	}
	return 0
}

// realFiles are the examples, the docs' YAML blocks and the valid test
// cases: files people write.
func realFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, _ := filepath.Glob("../../examples/*.yaml")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	doc, err := os.ReadFile("../../docs/test-format.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1) {
		out["docs block "+string(rune('A'+i))] = b[1]
	}
	if len(out) < 10 {
		t.Fatalf("found %d real files", len(out))
	}
	return out
}

func TestScanStructureMatchesTheParserOnRealFiles(t *testing.T) {
	for name, src := range realFiles(t) {
		f, err := yamlparser.ParseBytes([]byte(src), 0)
		if err != nil {
			continue // a fragment of the docs
		}
		want, wide := 0, 0
		for _, d := range f.Docs {
			if d != nil && d.Body != nil {
				want, wide = max(want, astDepth(d.Body)), max(wide, astWidest(d.Body))
			}
		}
		sc := scanStructure([]byte(src))
		if sc.widest != wide {
			t.Errorf("%s: scanned widest mapping %d keys, parser's %d", name, sc.widest, wide)
		}
		// The scanner may see a level more where a flow mapping sits in a
		// list; it must never see fewer than the parser builds.
		if sc.tooDeep || sc.tooMany || sc.depth < want || sc.depth > want+2 || sc.depth > 16 {
			t.Errorf("%s: scanned depth %d (limits hit: %v %v), parser's %d", name, sc.depth, sc.tooDeep, sc.tooMany, want)
		}
	}
}

// nest returns YAML nesting n levels deep in one of several styles.
func nest(style string, n int) string {
	var b strings.Builder
	switch style {
	case "flow lists":
		b.WriteString("x-a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
	case "flow mappings":
		b.WriteString("x-a: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n")
	case "flow over lines":
		b.WriteString("x-a:\n")
		for i := range n {
			b.WriteString(strings.Repeat(" ", 2+i%3) + "[\n")
		}
		b.WriteString("  " + strings.Repeat("]", n) + "\n")
	case "block mappings":
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
	case "compact lists":
		b.WriteString("x-a: \n" + strings.Repeat("- ", n) + "x\n")
	case "indentless lists":
		for i := range n / 2 {
			b.WriteString(strings.Repeat("  ", i) + "- a:\n")
		}
	case "complex keys":
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "? \n")
		}
	case "block then flow":
		for i := range n / 2 {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		b.WriteString(strings.Repeat(" ", n/2) + "b: " + strings.Repeat("[", n/2+1) + strings.Repeat("]", n/2+1) + "\n")
	}
	return b.String()
}

var nestStyles = []string{"flow lists", "flow mappings", "flow over lines", "block mappings", "compact lists", "indentless lists", "complex keys", "block then flow"}

func TestScanStructureCountsEveryStyleOfNesting(t *testing.T) {
	for _, style := range nestStyles {
		t.Run(style, func(t *testing.T) {
			if sc := scanStructure([]byte(nest(style, 40))); sc.tooDeep || sc.depth < 38 {
				t.Errorf("40 levels: scanned depth %d, too deep %v", sc.depth, sc.tooDeep)
			}
			for _, n := range []int{MaxDepth + 2, 1000, 32768} {
				if n > 2000 && (strings.Contains(style, "block") || style == "indentless lists" || style == "complex keys") {
					n = 2000 // indentation grows with the square of the levels
				}
				if sc := scanStructure([]byte(nest(style, n))); !sc.tooDeep {
					t.Errorf("%d levels: not refused (scanned depth %d)", n, sc.depth)
				}
			}
		})
	}
}

func TestScanStructureIgnoresScalarsAndComments(t *testing.T) {
	deep := strings.Repeat("[{", 100)
	tests := map[string]string{
		"brackets in a double-quoted string": `x-a: "` + deep + `"` + "\n",
		"brackets in a single-quoted string": "x-a: 'it''s " + deep + "'\n",
		"brackets in a plain scalar":         "x-a: a" + deep + "\n",
		"brackets in a comment":              "x-a: 1 # " + deep + "\n",
		"brackets in a quoted flow item":     "x-a: [\"" + deep + "\", '" + deep + "']\n",
		"a quoted string over lines":         "x-a: \"a\n  " + deep + "\n  b\"\nx-b: 1\n",
		"a block scalar": "x-a: |\n" + func() string {
			var b strings.Builder
			for i := range 200 {
				b.WriteString(strings.Repeat(" ", 2+i) + deep + "\n")
			}
			return b.String()
		}() + "x-b: 1\n",
		"a folded scalar with indicators": "x-a: >-\n  " + deep + "\n\n  " + deep + "\nx-b: [1]\n",
	}
	for name, src := range tests {
		if sc := scanStructure([]byte(src)); sc.tooDeep || sc.depth > 3 {
			t.Errorf("%s: scanned depth %d", name, sc.depth)
		}
	}
}

func TestReadRefusesBeforeParsing(t *testing.T) {
	big := make([]byte, MaxFileSize+1)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	entries := strings.Repeat("- a\n", MaxEntries+1)
	tests := []struct {
		name, src string
		want      string
		maxAlloc  uint64 // bytes read may allocate while refusing
	}{
		{"32k levels of flow lists", nest("flow lists", 32768), "t.yaml:1:69: the YAML nests more than 64 levels deep; a test file needs far fewer", 4 << 10},
		{"2k levels of block mappings", nest("block mappings", 2000), "t.yaml:65:65: the YAML nests more than 64 levels deep; a test file needs far fewer", 4 << 10},
		{"32k levels of compact lists", nest("compact lists", 32768), "t.yaml:2:127: the YAML nests more than 64 levels deep; a test file needs far fewer", 4 << 10},
		{"one level too deep", nest("flow lists", MaxDepth), "t.yaml:1:69: the YAML nests more than 64 levels deep; a test file needs far fewer", 4 << 10},
		{"too many entries", entries, "t.yaml:50001:1: the file has more than 50000 YAML entries (keys and list items); a test file needs far fewer (put large data in a CSV file, under data:)", 4 << 10},
		{"over 10 MiB", string(big), "t.yaml: the test file is 10.0 MiB; a test file may be at most 10 MiB (put large data in a CSV file, under data:)", 4 << 10},
		{"UTF-16", "\xff\xfes\x00", "t.yaml:1:1: the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8", 4 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			var err error
			n := testkit.Allocated(func() {
				d := New("t.yaml", nil)
				d.Read(src)
				err = d.Errs.Result()
			})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if n > tt.maxAlloc {
				t.Errorf("refusing allocated %d bytes, want at most %d", n, tt.maxAlloc)
			}
		})
	}
}

// TestScanStructureCountsPairsInFlowLists: a "key: value" item of a flow
// list is a mapping of its own, one level deeper than the list.
func TestScanStructureCountsPairsInFlowLists(t *testing.T) {
	tests := []struct {
		name, src string
		depth     int
	}{
		{"flow list of scalars", "x: [a, b]\n", 2},
		{"flow mapping", "x: {a: 1}\n", 2},
		{"a step in a flow list", "flow: [get: /x]\n", 3},
		{"a flow in a flow mapping", "s: {flow: [get: /x]}\n", 4},
		{"two pairs in a flow list", "s: {flow: [get: /x, post: /y]}\n", 4},
		{"a pair after a scalar", "x: [a, b: 1]\n", 3},
		{"a pair holding a list", "x: [a: [b: 1]]\n", 5},
		{"a quoted key", `x: ["a": 1]` + "\n", 3},
		{"a URL is no pair", "x: [http://h/x, 'a: b']\n", 2},
		{"a pair over lines", "x: [\n  get: /x,\n  b\n]\n", 3},
		{"scenarios in flow", "scenarios: {s: {vus: 1, duration: 1s, flow: [get: /x]}}\n", 5},
		{"block list of flow steps", "flow:\n  - {get: /x, check: [status: 200]}\n", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := yamlparser.ParseBytes([]byte(tt.src), 0)
			if err != nil {
				t.Fatal(err)
			}
			if parsed := astDepth(f.Docs[0].Body); parsed != tt.depth {
				t.Fatalf("the parser nests %d levels, the table says %d", parsed, tt.depth)
			}
			if sc := scanStructure([]byte(tt.src)); sc.depth != tt.depth {
				t.Errorf("scanned depth %d, want %d", sc.depth, tt.depth)
			}
		})
	}
}
