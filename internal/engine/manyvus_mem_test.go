//go:build linux

package engine

import (
	"runtime/metrics"
	"testing"

	"github.com/loadlens/loadlens/internal/proc"
)

// memClasses is where the process's memory is, in bytes (runtime/metrics'
// /memory/classes, and the resident set size as Linux counts it).
type memClasses struct {
	rss      float64 // resident: what a user sees
	objects  uint64  // heap objects, live or garbage not yet collected
	unused   uint64  // in heap spans but in no object: fragmentation
	free     uint64  // heap pages free and not returned to the OS
	stacks   uint64  // goroutine stacks
	metadata uint64  // the runtime's own books: spans, caches, GC bitmaps
}

var memClassNames = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes", "/memory/classes/heap/stacks:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes", "/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/other:bytes"}

// readMemClasses reads the process's memory classes now.
func readMemClasses(tb testing.TB) memClasses {
	s := make([]metrics.Sample, len(memClassNames))
	for i, n := range memClassNames {
		s[i].Name = n
	}
	metrics.Read(s)
	v := func(i int) uint64 { return s[i].Value.Uint64() }
	rss, ok := proc.ResidentBytes()
	if !ok {
		tb.Skip("no resident set size on this system")
	}
	return memClasses{rss: rss, objects: v(0), unused: v(1), free: v(2), stacks: v(3),
		metadata: v(4) + v(5) + v(6)}
}

// reportPerVU reports, in KiB per VU, how each class grew from before the
// VUs started (m0) to their steady state (m1): RSS, and the parts of it.
func reportPerVU(b *testing.B, m0, m1 memClasses, vus int) {
	per := func(now, before float64) float64 { return (now - before) / float64(vus) / 1024 }
	b.ReportMetric(per(m1.rss, m0.rss), "rss-KiB/VU")
	b.ReportMetric(per(float64(m1.objects), float64(m0.objects)), "objects-KiB/VU")
	b.ReportMetric(per(float64(m1.unused), float64(m0.unused)), "unused-KiB/VU")
	b.ReportMetric(per(float64(m1.stacks), float64(m0.stacks)), "stacks-KiB/VU")
	b.ReportMetric(per(float64(m1.metadata), float64(m0.metadata)), "meta-KiB/VU")
	b.ReportMetric(float64(m1.free)/float64(vus)/1024, "free-KiB/VU")
}
