package importer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/plan"
)

// TestRenderSaysTooLarge: a source large enough to pass a test file's
// limits is "import less", not "a bug in the import".
func TestRenderSaysTooLarge(t *testing.T) {
	headers := func(n int) []Header {
		hs := make([]Header, n)
		for i := range hs {
			hs[i] = Header{Name: fmt.Sprintf("X-H%d", i), Value: "v"}
		}
		return hs
	}
	tests := []struct {
		name    string
		headers int
		want    string // "" when it renders
	}{
		{"headers within the limit", plan.MaxKeys, ""},
		{"more headers than one mapping may have", plan.MaxKeys + 1, "keys in one mapping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tst := &Test{Name: "wide", BaseURL: "http://h", Scenarios: []*Scenario{{Name: "s", Load: DefaultLoad(),
				Flow: []Step{{Method: "GET", Path: "/x", Headers: headers(tt.headers)}}}}}
			_, err := Render(tst, "t.yaml")
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want != "" && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want ErrTooLarge saying %q", err, tt.want)
			}
		})
	}
}
