package app

import (
	"testing"

	"github.com/loadlens/loadlens/internal/scrape"
)

func TestOverflowNoteNamesTheTargetAndCounts(t *testing.T) {
	tests := []struct {
		name string
		o    scrape.Overflow
		want string
	}{
		{"a million series", scrape.Overflow{Target: "evil", Exposed: 1_000_000, Read: 250_000, TargetFull: 230_000, PerTarget: 20_000, PerRun: 50_000},
			"observe target evil: it exposes 1,000,000 samples and only the first 250,000 of a scrape are read; 230,000 more series beyond the 20,000 loadlens keeps of one target were dropped; the run goes on with the rest (select fewer series: a preset or series:, or at the exporter)"},
		{"the run full", scrape.Overflow{Target: "b", Exposed: 10, Read: 10, RunFull: 7, PerTarget: 20_000, PerRun: 50_000},
			"observe target b: 7 more series beyond the 50,000 loadlens keeps of all targets were dropped; the run goes on with the rest (select fewer series: a preset or series:, or at the exporter)"},
		{"label values of 10 MB", scrape.Overflow{Target: "evil", Exposed: 5, Read: 5, Oversized: 5},
			"observe target evil: 5 series with a name over 512 bytes, over 64 labels or a label value over 4,096 bytes were dropped; the run goes on with the rest (select fewer series: a preset or series:, or at the exporter)"},
	}
	for _, tt := range tests {
		if got := overflowNote(tt.o); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
