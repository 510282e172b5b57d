package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/loadlens/loadlens/internal/units"
)

// sizeBounds are the most each build of the product binary may weigh
// (decimal MB, as units.Bytes prints them), about 2 MB above what it
// weighed when they were set (docs/binary-size.md): a new dependency of a
// few MB, as gRPC's 3.6 MB was, fails here and is seen. Raise a bound only
// with the reason in the commit, after `go run ./bench/binsize` shows where
// the bytes went; issue 23's target is 40 MB.
var sizeBounds = map[string]int64{
	flavours[0].Name: 57_500_000, // 55.3 MB on 2026-11-30, after the OpenAPI importer's own model (no kin-openapi)
	flavours[1].Name: 40_000_000, // 38.4 MB (38,412,450 bytes): issue 23's target itself
}

// TestProductBinarySize builds ./cmd/loadlens as a developer and as the
// image build do, without build tags (the product binary, not the demo's
// backends), and fails when either is above its bound.
func TestProductBinarySize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the product binary twice")
	}
	dir := t.TempDir()
	for i, f := range flavours {
		bin := filepath.Join(dir, "loadlens-"+string(rune('0'+i)))
		if err := build("../..", "./cmd/loadlens", bin, f, ""); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		bound := sizeBounds[f.Name]
		t.Logf("%s: %s (bound %s)", f.Name, units.Bytes(st.Size()), units.Bytes(bound))
		if st.Size() > bound {
			t.Errorf("%s: the product binary is %s, above its bound of %s; see which module grew with `go run ./bench/binsize` (docs/binary-size.md)",
				f.Name, units.Bytes(st.Size()), units.Bytes(bound))
		}
	}
}
