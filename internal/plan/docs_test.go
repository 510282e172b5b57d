package plan

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsExamplesParse parses every complete test in docs/test-format.md
// (the YAML blocks with scenarios), so the reference cannot drift from the
// parser. Blocks without base_url get the demo shop's.
func TestDocsExamplesParse(t *testing.T) {
	doc, err := os.ReadFile("../../docs/test-format.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	// the files the examples name, as a reader would have them beside the test
	dir := filesIn(t, "protos/shop/cart.proto")
	tested := 0
	for i, b := range blocks {
		src := b[1]
		if !regexp.MustCompile(`(?m)^scenarios:`).MatchString(src) {
			continue
		}
		if !strings.Contains(src, "base_url:") {
			src = "base_url: http://127.0.0.1:8080\n" + src
		}
		tested++
		if _, err := Parse(filepath.Join(dir, "doc.yaml"), []byte(src), noEnv); err != nil {
			t.Errorf("YAML block %d does not parse: %v\n%s", i, err, src)
		}
	}
	if tested < 4 {
		t.Errorf("tested %d complete examples, want at least 4", tested)
	}
}
