package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/loadlens/loadlens/internal/compare"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/store"
)

// A past run is read back from its run.db: these find it, read its
// seconds and the holds its schedule kept.

// RunDB returns the run.db of a run directory, or path itself.
func RunDB(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, "run.db")
	}
	return path
}

// ReadSnapshots hands every stored second of a run.db to fn, in order.
func ReadSnapshots(db string, fn func(*metrics.Snapshot) error) error {
	rd, err := OpenRun(db)
	if err != nil {
		return err
	}
	defer rd.Close()
	return rd.Snapshots(fn)
}

// holdsKey is the run.db meta key of the holds of a run's schedule, kept at
// the start of the run: the stored test cannot always be parsed again, as
// its -e values are redacted (a BASE_URL or a HOLD given with -e).
const holdsKey = "holds"

func encodeHolds(h []compare.Hold) string {
	b, _ := json.Marshal(h) // plain numbers cannot fail to marshal
	return string(b)
}

func decodeHolds(s string) []compare.Hold {
	var h []compare.Hold
	if json.Unmarshal([]byte(s), &h) != nil {
		return nil
	}
	return h
}

// StoredHolds returns the holds of a run's schedule, kept in its meta or
// found by parsing its test again, and a note when that failed.
func StoredHolds(meta store.Meta) ([]compare.Hold, string) {
	if enc, ok := meta.Extra[holdsKey]; ok {
		return decodeHolds(enc), ""
	}
	if len(meta.TestSource) == 0 {
		return nil, ""
	}
	// a run recorded before its holds were kept: parse its test again
	p, err := plan.Parse(meta.TestFile, meta.TestSource, lenientEnv)
	if err != nil {
		return nil, fmt.Sprintf("its test did not parse again (%v), so its steady part is looked for in the data", firstLine(err.Error()))
	}
	return holdsOf(p), ""
}

// holdsOf returns the holds of a test's schedule, in the seconds compare
// judges: each without its warm-up (compare.WarmUp).
func holdsOf(p *plan.Plan) []compare.Hold {
	var out []compare.Hold
	for _, h := range plan.Holds(p, compare.WarmUp) {
		out = append(out, compare.Hold(h))
	}
	return out
}

// lenientEnv reads the environment and lets an unset variable be empty: a
// comparison needs the test's stages, not the values it was run with.
func lenientEnv(name string) (string, bool) {
	if v, ok := os.LookupEnv(name); ok {
		return v, true
	}
	return "", true
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
