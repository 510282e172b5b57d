package yamldoc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	yamlparser "github.com/goccy/go-yaml/parser"
)

// astWidest is the most keys in one block mapping of a parsed YAML node
// (flow mappings parse in linear time: the scanner does not count them).
func astWidest(n ast.Node) int {
	widest := 0
	switch v := n.(type) {
	case *ast.MappingNode:
		if !v.IsFlowStyle {
			widest = len(v.Values)
		}
		for _, mv := range v.Values {
			widest = max(widest, astWidest(mv.Value))
		}
	case *ast.MappingValueNode:
		widest = astWidest(v.Value)
		if !v.IsFlowStyle {
			widest = max(1, widest)
		}
	case *ast.SequenceNode:
		for _, e := range v.Values {
			widest = max(widest, astWidest(e))
		}
	case *ast.AnchorNode:
		widest = astWidest(v.Value)
	case *ast.TagNode:
		widest = astWidest(v.Value)
	}
	return widest
}

// keys returns n lines "<indent>k<i>: v".
func keys(indent string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sk%d: v\n", indent, i)
	}
	return b.String()
}

func TestScanStructureCountsKeysPerMapping(t *testing.T) {
	tests := []struct {
		name, src string
		widest    int
	}{
		{"top level", keys("", 7), 7},
		{"nested under a key", "x-a:\n" + keys("  ", 7) + "x-b: 1\n", 7},
		{"siblings after a nested mapping", "a:\n  b: 1\n  c: 2\nd: 3\ne: 4\nf: 5\n", 4},
		{"a list item's mapping", "x-a:\n  - a: 1\n    b: 2\n    c: 3\n  - d: 4\n", 3},
		{"compact lists start new mappings", "x-a:\n- a: 1\n- b: 2\n- c: 3\nx-b: 1\n", 2},
		{"an indentless list under a key", "a:\n- 1\n- 2\nb: 2\nc: 3\n", 3},
		{"comments and blank lines", "a: 1\n# c\n\nb: 2\n  # c\nc: 3\n", 3},
		{"block scalars", "a: |\n  x: 1\n  y: 2\nb: 2\n", 2},
		{"complex keys", "x-a:\n  ? a\n  : 1\n  ? b\n  : 2\n  ? c\n  : 3\n", 3},
		{"quoted keys", "x-a:\n  \"a\": 1\n  'b': 2\n  \"c: d\": 3\n", 3},
		{"a list of scalars", "x-a:\n" + strings.Repeat("  - v\n", 9), 1},
		{"mappings side by side", "x-a:\n  m:\n" + keys("    ", 4) + "  n:\n" + keys("    ", 5), 5},
		{"a second document", "a: 1\nb: 2\n---\nc: 3\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := yamlparser.ParseBytes([]byte(tt.src), 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed := 0
			for _, d := range f.Docs {
				if d != nil && d.Body != nil {
					parsed = max(parsed, astWidest(d.Body))
				}
			}
			if parsed != tt.widest {
				t.Fatalf("the parser's widest mapping has %d keys, the table says %d", parsed, tt.widest)
			}
			if sc := scanStructure([]byte(tt.src)); sc.widest != tt.widest {
				t.Errorf("scanned widest mapping %d keys, want %d", sc.widest, tt.widest)
			}
		})
	}
}

// side returns n mappings of k keys each, side by side under x-a.
func side(n, k int) string {
	var b strings.Builder
	b.WriteString("x-a:\n")
	for i := range n {
		fmt.Fprintf(&b, "  m%d:\n%s", i, keys("    ", k))
	}
	return b.String()
}

// TestReadRefusesWideMappings: the parser's time grows with the square of
// one mapping's keys (49,000 keys took 32 s), so a wide one is refused
// before it runs, where the mapping starts, with all its keys counted; and
// so do the keys of large mappings together (24 of 2,000 keys took 1.2 s
// of CPU, 7.6 s on a busy host, where 48,000 list items take 0.2 s).
func TestReadRefusesWideMappings(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // "" when the limits pass
	}{
		{"at the limit", "x-a:\n" + keys("  ", MaxKeys), ""},
		{"one key over", "x-a:\n" + keys("  ", MaxKeys+1),
			"t.yaml:2:3: 2,001 keys in one mapping, more than 2,000; a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"49,000 keys", "x-a:\n" + keys("  ", 49000),
			"t.yaml:2:3: 49,000 keys in one mapping, more than 2,000; a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"in a list item", "x-a:\n  - b: 1\n" + keys("    ", MaxKeys) + "x-b: 1\n",
			"t.yaml:2:5: 2,001 keys in one mapping, more than 2,000; a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"the first wide mapping", "x-a:\n" + keys("  ", MaxKeys+5) + "x-b:\n" + keys("  ", MaxKeys+9),
			"t.yaml:2:3: 2,005 keys in one mapping, more than 2,000; a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"mappings side by side within the limit", "x-a:\n  m:\n" + keys("    ", MaxKeys) + "  n:\n" + keys("    ", MaxKeys), ""},
		{"large mappings up to their budget", side(MaxLargeKeys/MaxKeys, MaxKeys), ""},
		{"many large mappings", side(24, MaxKeys),
			"t.yaml:8007:5: 48,000 keys in mappings of more than 200 keys each, more than 8,000 in all; a test file needs far fewer (put large data in a CSV file, under data:)"},
		{"many small mappings", side(200, LargeMapping), ""},
		{"a list as long", "x-a:\n" + strings.Repeat("  - v\n", 3*MaxKeys), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New("t.yaml", nil)
			_, _, ok := d.Read([]byte(tt.src))
			err := d.Errs.Result()
			if tt.want == "" {
				if !ok {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}
