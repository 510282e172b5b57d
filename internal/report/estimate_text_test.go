package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loadlens/loadlens/internal/estimate"
)

// TestEstimateText renders estimate's golden estimates (the case studies'
// plans) and looks for what each must show, within 100 columns.
func TestEstimateText(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "estimate", "testdata", "case-*.json"))
	if err != nil || len(files) < 5 {
		t.Fatalf("%d golden estimates (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var g struct {
				Result       estimate.Result
				WantInRender []string
			}
			if err := json.Unmarshal(raw, &g); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteEstimateText(&b, g.Result); err != nil {
				t.Fatal(err)
			}
			for _, want := range g.WantInRender {
				if !strings.Contains(b.String(), want) {
					t.Errorf("rendered estimate lacks %q:\n%s", want, b.String())
				}
			}
			for i, line := range strings.Split(b.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > EstimateColumns {
					t.Errorf("line %d is %d columns wide, more than %d:\n%s", i+1, n, EstimateColumns, line)
				}
			}
		})
	}
}

func TestEstimateWrap(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  []string
	}{
		{"a b c", 10, []string{"a b c"}},
		{"aaa bbb ccc", 7, []string{"aaa bbb", "ccc"}},
		{"x results/a-very-long-path y", 8, []string{"x", "results/", "a-very-l", "ong-path", "y"}},
		{"", 5, []string{""}},
		{"Little's law N = X·(R+Z), rounded up", 20, []string{"Little's law", "N = X·(R+Z), rounded", "up"}},
	}
	for _, tc := range tests {
		got := wrapFormula(tc.s, tc.width)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapFormula(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
