package metrics

import (
	"slices"

	"github.com/loadlens/loadlens/internal/sample"
)

// maxCheckStatuses is how many statuses a check's outcomes are kept by:
// a check's usual answers (a 200 and a 404) and a few more, bounded;
// outcomes of other statuses count only in Passes and Fails.
const maxCheckStatuses = 4

// CheckStatus is a check's outcomes on the answers of one status.
type CheckStatus struct {
	Status        int
	Passes, Fails int64
}

// record counts one evaluation of the check and what it read.
func (c *CheckSecond) record(ok bool, a sample.CheckRead) {
	if ok {
		c.Passes++
	} else {
		c.Fails++
		c.NotJSON += b2i(a.NotJSON)
		c.NoValue += b2i(a.NoValue && !a.NotJSON)
	}
	if a.Status > 0 {
		c.Statuses = addCheckStatus(c.Statuses, CheckStatus{Status: a.Status, Passes: b2i(ok), Fails: b2i(!ok)})
	}
}

// merge adds o's outcomes to c's.
func (c *CheckSecond) merge(o *CheckSecond) {
	c.Passes += o.Passes
	c.Fails += o.Fails
	c.NotJSON += o.NotJSON
	c.NoValue += o.NoValue
	for _, s := range o.Statuses {
		c.Statuses = addCheckStatus(c.Statuses, s)
	}
}

// Clone returns a copy of c that shares no statuses with it.
func (c CheckTotal) Clone() CheckTotal {
	c.Statuses = slices.Clone(c.Statuses)
	return c
}

// addCheckStatus adds s to the outcomes of its status in list, or as a new
// status while fewer than maxCheckStatuses are kept.
func addCheckStatus(list []CheckStatus, s CheckStatus) []CheckStatus {
	for i := range list {
		if list[i].Status == s.Status {
			list[i].Passes += s.Passes
			list[i].Fails += s.Fails
			return list
		}
	}
	if len(list) < maxCheckStatuses {
		return append(list, s)
	}
	return list
}

// hasCheckReads reports whether a check of s kept what it read: snapshot
// format 9 then, so that a test without such checks stays readable by
// earlier builds.
func hasCheckReads(s *Snapshot) bool {
	for i := range s.Checks {
		if c := &s.Checks[i]; c.NotJSON > 0 || c.NoValue > 0 || len(c.Statuses) > 0 {
			return true
		}
	}
	return false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
