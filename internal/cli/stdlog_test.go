package cli

import (
	"fmt"
	"log"
	"strings"
	"testing"
)

func TestLimitedLog(t *testing.T) {
	tests := []struct {
		lines, wantShown int
		wantNote         bool
	}{
		{0, 0, false},
		{stdLogLimit, stdLogLimit, false},
		{stdLogLimit + 1, stdLogLimit, true},
		{1000, stdLogLimit, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.lines), func(t *testing.T) {
			var sb strings.Builder
			lg := log.New(NewLimitedLog(&sb), "", 0)
			for i := range tt.lines {
				lg.Printf("Unsolicited response %d", i)
			}
			out := sb.String()
			if got := strings.Count(out, "Unsolicited response"); got != tt.wantShown {
				t.Errorf("%d lines shown, want %d:\n%s", got, tt.wantShown, out)
			}
			if got := strings.Count(out, "left out"); got != map[bool]int{true: 1, false: 0}[tt.wantNote] {
				t.Errorf("the note appears %d times:\n%s", got, out)
			}
		})
	}
}
