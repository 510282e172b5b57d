package plan

import (
	"fmt"
	"math"
	"strconv"

	"github.com/loadlens/loadlens/internal/yamldoc"
)

// What one VU and one core can do, measured (docs/test-format.md, "Machine
// limits", says how). A test asking for more than the machine can hold is
// refused at parse time rather than failing mid-run.
const (
	// VUMemory is the memory budgeted per VU: 17.6 KiB measured per VU
	// (goroutine, buffers, connection) at 5,000 and 15,000 VUs against a
	// loopback target, 20.7 KiB in bench/RESULTS.md, with room for larger
	// headers and the kernel's socket buffers, which RSS does not show.
	VUMemory = 32 << 10
	// PerCoreRate is the most requests per second one core can send: the
	// best measured is 130,000 requests per CPU-second (bench/RESULTS.md,
	// keep-alive against nginx on loopback).
	PerCoreRate = 150000
	// reservedFiles are the open files a run needs besides its VUs'
	// connections (run.db, the dashboard, scrapes, data files).
	reservedFiles = 64
)

// Machine is what the machine running a test offers. The zero value (or a
// zero field) checks nothing, so plan stays pure: the command line reads
// the machine and passes it in.
type Machine struct {
	MemAvailable int64   // bytes of memory the run may use (MemAvailable, or the cgroup's limit)
	OpenFiles    int     // files the process may open (RLIMIT_NOFILE): each VU holds a connection
	CPUs         int     // cores the process may use
	Share        float64 // the part of the test this process runs (--segment); 0 means all of it
}

// share returns the fraction of the test this process runs.
func (m Machine) share() float64 {
	if m.Share <= 0 || m.Share > 1 {
		return 1
	}
	return m.Share
}

// MaxVUs returns how many VUs the machine holds; 0 when unknown.
func (m Machine) MaxVUs() int {
	n, _ := m.vuLimit()
	return n
}

// vuLimit returns how many VUs the machine holds and whether open files,
// rather than memory, are what limits them.
func (m Machine) vuLimit() (n int, byFiles bool) {
	mem, files := 0, 0
	if m.MemAvailable > 0 {
		mem = int(min(m.MemAvailable/4*3/VUMemory, math.MaxInt32))
	}
	if m.OpenFiles > 0 {
		files = max(m.OpenFiles-reservedFiles, 1)
	}
	if files > 0 && (mem == 0 || files < mem) {
		return files, true
	}
	return mem, false
}

// vuProblem says why n VUs (what names them, e.g. "VUs (max_vus)") are too
// many for the machine, or "" when they fit.
func (m Machine) vuProblem(n int, what string) string {
	limit, byFiles := m.vuLimit()
	if limit == 0 || n <= limit {
		return ""
	}
	if byFiles {
		return fmt.Sprintf("%s %s hold %s connections, each an open file, and this process may open %s files (ulimit -n): at most %s VUs; raise ulimit -n or split the load with run --agents",
			group(int64(n)), what, group(int64(n)), group(int64(m.OpenFiles)), group(int64(limit)))
	}
	return fmt.Sprintf("%s %s need about %s of memory at %d KiB each; this machine has %s available, and about %s VUs fit in three quarters of it",
		group(int64(n)), what, bytesText(int64(n)*VUMemory), VUMemory>>10, bytesText(m.MemAvailable), group(int64(limit)))
}

// MaxRate returns the most requests per second the machine can send, and
// why; 0 when unknown.
func (m Machine) MaxRate() (float64, string) {
	if m.CPUs <= 0 {
		return 0, ""
	}
	return float64(m.CPUs * PerCoreRate), fmt.Sprintf("one process sends at most about %s requests/s here (%s per core × %d cores)",
		group(int64(m.CPUs*PerCoreRate)), group(PerCoreRate), m.CPUs)
}

// vuNeed is a scenario's demand on the machine.
type vuNeed struct {
	vus      int  // VUs it runs, or its max_vus ceiling
	defaults bool // max_vus was not written: the parser chose it and may lower it
	pre      int  // pre_allocated_vus as written; -1 when not written
}

// checkVUs reports a count of VUs, written at n, that the machine cannot
// hold; what names the figure ("VUs", "VUs (max_vus)").
func (p *parser) checkVUs(n yamldoc.Node, count int, what string) bool {
	need := int(math.Ceil(float64(count) * p.machine.share()))
	if problem := p.machine.vuProblem(need, what); problem != "" {
		p.Errs.Add(n.Pos, n.Path, "%s", problem)
		return false
	}
	return true
}

// maxShownRequests is the most requests per iteration a message counts:
// nested repeats multiply past any real flow (16 of 10,000 make 10^64).
const maxShownRequests = 1_000_000_000

// checkRate reports an arrival rate, written at n, of iterations with
// requests requests each, beyond what the machine can send.
func (p *parser) checkRate(n yamldoc.Node, perSecond float64, requests int64) bool {
	limit, why := p.machine.MaxRate()
	need := perSecond * float64(max(requests, 1)) * p.machine.share()
	if limit == 0 || need <= limit {
		return true
	}
	each := "1 request each"
	switch {
	case requests > maxShownRequests:
		each = "more than " + group(maxShownRequests) + " requests each"
	case requests > 1:
		each = group(requests) + " requests each"
	}
	p.Errs.Add(n.Pos, n.Path, "%s iterations/s (%s) is more than this machine can send: %s; split the load over several machines with run --agents (or k8s run), which gives each its share",
		number(perSecond), each, why)
	return false
}

// checkTotalVUs reports scenarios that each fit the machine but together
// do not, and lowers the max_vus (and pre_allocated_vus) that arrival-rate
// scenarios did not write to their share of what is left.
func (p *parser) checkTotalVUs(scenarios []*Scenario, needs map[*Scenario]vuNeed, at yamldoc.Node) {
	limit := p.machine.MaxVUs()
	if limit == 0 {
		return
	}
	share := p.machine.share()
	part := func(n int) int { return int(math.Ceil(float64(n) * share)) }
	fixed, defaulted := 0, 0
	for _, s := range scenarios {
		need, ok := needs[s]
		switch {
		case !ok:
		case need.defaults:
			defaulted++
			fixed += part(max(need.pre, 0))
		default:
			fixed += part(need.vus)
		}
	}
	if problem := p.machine.vuProblem(fixed, "VUs (all scenarios together)"); problem != "" {
		p.Errs.Add(at.Key, at.Path, "%s", problem)
		return
	}
	if defaulted == 0 {
		return
	}
	room := int(float64((limit-fixed)/defaulted) / share)
	for _, s := range scenarios {
		need, ok := needs[s]
		if !ok || !need.defaults {
			continue
		}
		l := &s.Load
		l.MaxVUs = max(min(l.MaxVUs, max(need.pre, 0)+room), need.pre, 1)
		if need.pre < 0 {
			l.PreAllocatedVUs = min(l.PreAllocatedVUs, l.MaxVUs)
		}
	}
}

// group writes n with thousands separators: 100,000,000.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// number writes a rate: grouped when whole and not huge, else short.
func number(f float64) string {
	if f == math.Trunc(f) && f < 1e15 {
		return group(int64(f))
	}
	return strconv.FormatFloat(f, 'g', 4, 64)
}

// bytesText writes a size in the largest binary unit that keeps it ≥ 1.
func bytesText(b int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, i := float64(b), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d bytes", b)
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}
