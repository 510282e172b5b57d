package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"time"
)

// gcPremise is the share of wall time a gc case's JVM must spend paused for
// GC over the load's hold, by its own GC log: a tenth of every second
// stopped is a pressure any request feels, twice the least share
// loadlens's rule looks at (5 %), so the label does not borrow the rule's
// threshold.
const gcPremise = 0.10

// Premise is what the harness measured of a case's fault while loadlens
// ran, apart from loadlens: a run whose fault did not happen says nothing
// of the rule that should name it, right or wrong.
type Premise struct {
	What     string  `json:"what"`
	Want     float64 `json:"want"`     // the least value for the fault to count as present
	Measured float64 `json:"measured"` // 0 when nothing could be measured
	Pauses   int     `json:"pauses"`   // GC pauses inside the window
	Met      bool    `json:"met"`
	Why      string  `json:"why,omitempty"` // why it is not met
}

// gcPause is one stop-the-world pause of a JVM's unified GC log.
type gcPause struct {
	end time.Time // when the JVM logged it: the pause's end
	dur time.Duration
}

// gcLogLine matches a pause line of -Xlog:gc:file=…:timemillis, e.g.
// "[1795978500123ms] GC(12) Pause Young (Allocation Failure) 40M->9M(123M) 5.123ms".
var gcLogLine = regexp.MustCompile(`^\[(\d+)ms\] GC\(\d+\) Pause .* ([0-9.]+)ms$`)

// gcLogFlag is the JVM option that writes the log readGCLog reads. The
// log is the JVM's own account, written even while a GC storm keeps it
// from answering any scrape (Actuator's jvm_gc_pause_seconds went
// unanswered for a whole hold and the minute after).
func gcLogFlag(path string) string { return "-Xlog:gc:file=" + path + ":timemillis" }

// readGCLog reads the pauses of a GC log; lines of other kinds are skipped.
func readGCLog(rd io.Reader) ([]gcPause, error) {
	var out []gcPause
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		m := gcLogLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		at, err1 := strconv.ParseInt(m[1], 10, 64)
		ms, err2 := strconv.ParseFloat(m[2], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("GC log: bad pause line %q", sc.Text())
		}
		out = append(out, gcPause{end: time.UnixMilli(at), dur: time.Duration(ms * float64(time.Millisecond))})
	}
	return out, sc.Err()
}

// gcShare judges the GC premise over [from, to] from a JVM's GC log: the
// pauses that ended inside it over its wall time.
func gcShare(path string, from, to time.Time, want float64) Premise {
	p := Premise{What: "share of wall time the JVM paused for GC over the load's hold (its own GC log)", Want: want}
	f, err := os.Open(path)
	if err != nil {
		p.Why = "not measured: " + err.Error()
		return p
	}
	defer f.Close()
	pauses, err := readGCLog(f)
	if err != nil {
		p.Why = "not measured: " + err.Error()
		return p
	}
	var paused time.Duration
	for _, g := range pauses {
		if !g.end.Before(from) && !g.end.After(to) {
			paused += g.dur
			p.Pauses++
		}
	}
	p.Measured = paused.Seconds() / to.Sub(from).Seconds()
	p.Met = p.Measured >= want
	if !p.Met {
		p.Why = fmt.Sprintf("the JVM paused for GC %.1f %% of the hold's wall time, below the %.0f %% that makes the fault", 100*p.Measured, 100*want)
	}
	return p
}
