package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/loadlens/loadlens/internal/units"
)

// result is one client's figures in one round, in bytes per session.
// Resident and kernel are the growth from the smaller count to the larger
// over the sessions added; the in-process figures are what the larger
// count's sessions added to the process, over their count.
type result struct {
	resident float64
	// in-process only: held after a collection that returned what it
	// freed, its heap and stacks, goroutines; before it, resident memory,
	// heap objects live or not yet collected, and free heap pages kept.
	held, heap, stacks, goroutines, resident0, objects0, free0 float64
	kernelTCP, kernelSlab                                      float64
}

// measureBoth measures c at both counts.
func measureBoth(c client, srv *server, ns [2]int) (result, error) {
	var rs [2]reading
	for i, n := range ns {
		r, err := measure(c.cmd(n), srv, n, c.inProcess)
		if err != nil {
			return result{}, fmt.Errorf("%d sessions: %w", n, err)
		}
		rs[i] = r
	}
	d := float64(ns[1] - ns[0])
	out := result{resident: float64(rs[1].rss-rs[0].rss) / d,
		kernelTCP:  float64(rs[1].kernel.tcp-rs[0].kernel.tcp) / d,
		kernelSlab: float64(rs[1].kernel.slab-rs[0].kernel.slab) / d}
	if in := rs[1].inner; in != nil {
		n := float64(ns[1])
		out.held, out.heap, out.stacks, out.goroutines = float64(in[0])/n, float64(in[1])/n, float64(in[2])/n, float64(in[3])/n
		out.resident0, out.objects0, out.free0 = float64(in[4])/n, float64(in[5])/n, float64(in[6])/n
	}
	return out, nil
}

// kernelMem is the kernel's memory that sockets use, system-wide: the TCP
// buffers (/proc/net/sockstat's mem) and the slab caches (sockets, files,
// epoll items: /proc/meminfo's Slab), in bytes.
type kernelMem struct{ tcp, slab int64 }

// readKernel reads the kernel's socket memory; zeros when /proc has none.
func readKernel() kernelMem {
	var k kernelMem
	if b, err := os.ReadFile("/proc/net/sockstat"); err == nil {
		for line := range strings.Lines(string(b)) {
			f := strings.Fields(line)
			if len(f) > 0 && f[0] == "TCP:" {
				for i := 1; i+1 < len(f); i += 2 {
					if f[i] == "mem" {
						pages, _ := strconv.ParseInt(f[i+1], 10, 64)
						k.tcp = pages * int64(os.Getpagesize())
					}
				}
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if rest, ok := strings.CutPrefix(line, "Slab:"); ok {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					kb, _ := strconv.ParseInt(f[0], 10, 64)
					k.slab = kb << 10
				}
			}
		}
	}
	return k
}

// report writes the medians (min–max) over the rounds and, with a
// baseline, the paired ratio of loadlens run's resident memory.
func report(w io.Writer, o options, clients []client, results [][]result) {
	fmt.Fprintf(w, "%s → %s idle sessions, %s; bytes per session, median (min–max)\n\n",
		units.Count(int64(o.ns[0])), units.Count(int64(o.ns[1])), units.CountOf(int64(o.rounds), "round", "rounds"))
	fmt.Fprintln(w, "| client | resident | of 16 KiB | held (heap + stacks) | goroutines | before the collection: objects, free pages |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- |")
	for i, c := range clients {
		rs := results[i]
		fmt.Fprintf(w, "| %s | %s | %s |", c.name, spread(rs, func(r result) float64 { return r.resident }, size),
			spread(rs, func(r result) float64 { return r.resident / target }, units.Number))
		if c.inProcess {
			fmt.Fprintf(w, " %s (%s + %s) | %s | %s, %s |\n", spread(rs, func(r result) float64 { return r.held }, size),
				median(rs, func(r result) float64 { return r.heap }, size), median(rs, func(r result) float64 { return r.stacks }, size),
				median(rs, func(r result) float64 { return r.goroutines }, units.Number),
				spread(rs, func(r result) float64 { return r.objects0 }, size), spread(rs, func(r result) float64 { return r.free0 }, size))
		} else {
			fmt.Fprintln(w, " | | |")
		}
	}
	if len(clients) > 1 && clients[1].baseline {
		ratios := make([]result, len(results[0]))
		for i := range ratios {
			ratios[i].resident = results[0][i].resident / results[1][i].resident
		}
		fmt.Fprintf(w, "| ratio, loadlens run ÷ baseline, paired | %s | | | | |\n", spread(ratios, func(r result) float64 { return r.resident }, units.Multiple))
	}
	all := slices.Concat(results...)
	fmt.Fprintf(w, "\nThe kernel's, both ends of a session (system-wide, other processes' noise included): TCP buffers %s, slab (sockets, files, epoll) %s\n",
		spread(all, func(r result) float64 { return r.kernelTCP }, size), spread(all, func(r result) float64 { return r.kernelSlab }, size))
}

// size formats a byte count.
func size(v float64) string { return units.Bytes(int64(v)) }

// median formats the median of f over rs.
func median(rs []result, f func(result) float64, format func(float64) string) string {
	v := values(rs, f)
	return format(v[len(v)/2])
}

// spread formats the median, min and max of f over rs.
func spread(rs []result, f func(result) float64, format func(float64) string) string {
	v := values(rs, f)
	if len(v) == 1 {
		return format(v[0])
	}
	return format(v[len(v)/2]) + " (" + format(v[0]) + "–" + format(v[len(v)-1]) + ")"
}

// values is f over rs, sorted.
func values(rs []result, f func(result) float64) []float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	return v
}
