package plan

import "testing"

// TestEndpointPlain pins Layout's Plain: an endpoint is plain http only
// when every request of it goes to an http:// URL, so that a TLS
// threshold's "no TLS handshake (plain http)" is never said of https.
func TestEndpointPlain(t *testing.T) {
	tests := []struct {
		name, base, second string // second: another step of the same endpoint, or ""
		want               bool
	}{
		{"http base", "http://h", "", true},
		{"https base", "https://h", "", false},
		{"upper-case scheme", "HTTP://h", "", true},
		{"one step of the endpoint over https", "http://h", "https://h2/x", false},
		{"both steps plain", "http://h", "http://h2/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "base_url: " + tt.base + "\nscenarios:\n  s:\n    iterations: 1\n    flow:\n      - get: /x\n        name: x\n"
			if tt.second != "" {
				src += "      - get: " + tt.second + "\n        name: x\n"
			}
			p, err := Parse("t.yaml", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Layout.Endpoints[0].Plain; got != tt.want || len(p.Layout.Endpoints) != 1 {
				t.Errorf("Plain %v, want %v (%d endpoints)", got, tt.want, len(p.Layout.Endpoints))
			}
		})
	}
}
