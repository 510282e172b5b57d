package dist

import (
	"fmt"
	"sync"
	"testing"
)

// TestProgressCountsWhatTheTargetServed: the totals a coordinator in a pod
// publishes after each merged second end at the target's own count.
func TestProgressCountsWhatTheTargetServed(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: progress\nbase_url: %s\nscenarios:\n  s:\n    rate: 30\n    duration: 2s\n    flow:\n      - get: /p\n", srv.URL), nil)
	var mu sync.Mutex
	var seen []Progress
	cfg := Config{TestFile: path, Agents: addrsOf(startAgents(t, 2, token, nil)), Token: token,
		Progress: func(p Progress) { mu.Lock(); seen = append(seen, p); mu.Unlock() }}
	_, out, err := coordinateTest(t, cfg)
	if err != nil {
		t.Fatalf("Coordinate: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("Progress called %d times, want once a second", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].Requests < seen[i-1].Requests || seen[i].Second <= seen[i-1].Second {
			t.Errorf("progress went back: %+v after %+v", seen[i], seen[i-1])
		}
	}
	last := seen[len(seen)-1]
	if last.Requests != count("/p") || last.Requests < 50 || last.Agents != 2 || last.Lost != 0 || last.Failures != 0 {
		t.Errorf("last progress %+v; the target served %d", last, count("/p"))
	}
}
