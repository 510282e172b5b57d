package demo

import (
	_ "embed"
	"strings"
)

//go:embed tests/quick.yaml
var quickTest string

// placeholderURL is the base_url written in the embedded tests.
const placeholderURL = "http://127.0.0.1:8080"

// QuickTest returns the demo's test file, pointed at baseURL.
func QuickTest(baseURL string) []byte {
	return []byte(strings.Replace(quickTest, placeholderURL, baseURL, 1))
}
