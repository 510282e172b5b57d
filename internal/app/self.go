package app

import (
	"runtime"

	"github.com/loadlens/loadlens/internal/diagnose"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/proc"
	"github.com/loadlens/loadlens/internal/series"
)

// The series the generator records about itself every second, so that a
// run can show when loadlens, not the target, was the limit.
const (
	selfCPU        = diagnose.GeneratorCPU          // CPU cores busy (user + system)
	selfCapacity   = diagnose.GeneratorCapacity     // cores the generator may use (GOMAXPROCS, or its container's quota)
	selfGoroutines = "loadlens_goroutines"          // live goroutines
	selfFDs        = "loadlens_open_fds"            // open file descriptors, sockets included
	selfBytesIn    = "loadlens_received_bytes"      // bytes received in the second
	selfBytesOut   = "loadlens_sent_bytes"          // bytes sent in the second
	selfLag        = "loadlens_scheduler_lag_p99_s" // open-model start lag, p99, in seconds
	selfHostCPU    = diagnose.HostCPU               // cores busy on the host, every process counted
	selfHostSteal  = diagnose.HostSteal             // cores' worth of time the hypervisor took
	selfHostCPUs   = diagnose.HostCPUs              // the host's CPUs
	selfStall      = diagnose.GeneratorStall        // goroutines' wait to run, p99, in seconds
	selfCPUWait    = diagnose.GeneratorCPUWait      // threads' run-queue wait, in cores
	selfPoolHeld   = diagnose.GeneratorPoolHeld     // the size an open-model VU pool was held at; labels scenario, reason
)

// selfLabels marks the generator's own series.
var selfLabels = []series.Label{{Name: "role", Value: "generator"}, {Name: "target", Value: "loadlens"}}

// selfSeries returns the generator's figures for one second; cpu < 0 (fds
// < 0) means it (the open descriptors) could not be measured. The host's CPU goes beside loadlens's own, so
// late iterations on a host busy with other work are not blamed on loadlens.
func selfSeries(sec int, cpu, capacity float64, host proc.HostReading, st stall, pools []poolHeld, last *metrics.Second, fds int) series.Set {
	point := func(name string, v float64) *series.Series {
		return &series.Series{Name: name, Labels: selfLabels, Kind: series.Gauge, Points: []series.Point{{Sec: sec, Value: v}}}
	}
	set := series.Set{
		point(selfCapacity, capacity),
		point(selfGoroutines, float64(runtime.NumGoroutine())),
		point(selfBytesIn, float64(last.Received)),
		point(selfBytesOut, float64(last.Sent)),
		point(selfLag, last.LagP99.Seconds()),
	}
	if cpu >= 0 {
		set = append(set, point(selfCPU, cpu))
	}
	if st.p99 >= 0 {
		set = append(set, point(selfStall, st.p99))
	}
	if st.waitCores >= 0 {
		set = append(set, point(selfCPUWait, st.waitCores))
	}
	for _, p := range pools {
		labels := append(append([]series.Label{}, selfLabels...), series.Label{Name: "reason", Value: p.reason}, series.Label{Name: "scenario", Value: p.scenario})
		series.SortLabels(labels)
		set = append(set, &series.Series{Name: selfPoolHeld, Labels: labels, Kind: series.Gauge, Points: []series.Point{{Sec: sec, Value: float64(p.size)}}})
	}
	if host.OK {
		set = append(set, point(selfHostCPU, host.Busy), point(selfHostSteal, host.Steal), point(selfHostCPUs, float64(host.CPUs)))
	}
	if fds >= 0 {
		set = append(set, point(selfFDs, float64(fds)))
	}
	return set
}

// poolHeld is an open-model scenario's VU pool held while it dropped
// arrivals: at what size, and why (sample.Gauge.HeldBy).
type poolHeld struct {
	scenario, reason string
	size             int64
}
