package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"slices"

	"github.com/loadlens/loadlens/internal/units"
)

// result is one binary's memory per VU in one round, in KiB, its CPU per
// request at N VUs, in µs (the cost of a VU's iteration, its wake-up after
// the think time included), and the requests a second the server answered
// (N ÷ think time when the generator keeps up: a change that saved memory
// by starting VUs late would show here); allSent, in seconds, and early
// are the start's shape (sends.startShape).
type result struct {
	peak, steady, marginal, cpu, rate float64
	allSent, early                    float64
}

// run measures the binaries round by round and writes the table to w.
func run(o options, w io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	go serve(ln, o.delay)
	target := "http://" + ln.Addr().String()
	bins := []string{o.binary}
	if o.baseline != "" {
		bins = append(bins, o.baseline)
	}
	dir, err := os.MkdirTemp("", "vumem")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	results := make([][]result, len(bins))
	for round := range o.rounds {
		for i, bin := range bins {
			r, err := measureOne(bin, target, dir, o)
			if err != nil {
				return err
			}
			results[i] = append(results[i], r)
			fmt.Fprintf(os.Stderr, "round %d %s: peak %s KiB/VU, steady %s, marginal %s, CPU %s µs/request, %s requests/s, %s, early %s\n", round+1, bin,
				units.Number(r.peak), units.Number(r.steady), units.Number(r.marginal), units.Number(r.cpu), units.Number(r.rate),
				sentText(r.allSent), units.Multiple(r.early))
		}
	}
	report(w, o, bins, results)
	return nil
}

// measureOne runs bin with o.vus VUs and with one, and returns the figures per VU.
func measureOne(bin, target, dir string, o options) (result, error) {
	arrivals.reset()
	m, err := measure(bin, target, dir, o.vus, o)
	if err != nil {
		return result{}, err
	}
	allSent, early := arrivals.startShape(o.vus, o.delay, o.think)
	one, err := measure(bin, target, dir, 1, o)
	if err != nil {
		return result{}, err
	}
	if m.reqs == 0 {
		return result{}, fmt.Errorf("%s: the server answered no request", bin)
	}
	n := float64(o.vus)
	return result{peak: m.peak / n / 1024, steady: m.steady / n / 1024,
		marginal: (m.peak - one.peak) / (n - 1) / 1024, cpu: m.cpu / float64(m.reqs) * 1e6,
		rate: float64(m.reqs) / o.duration.Seconds(), allSent: allSent.Seconds(), early: early}, nil
}

// report writes the medians (min–max) and, with a baseline, the paired ratios.
func report(w io.Writer, o options, bins []string, results [][]result) {
	fmt.Fprintf(w, "%s VUs, one GET answered after %s then %s think, %s, %s; KiB per VU, median (min–max)\n\n",
		units.Count(int64(o.vus)), units.DurationLiteral(o.delay), units.DurationLiteral(o.think), units.DurationLiteral(o.duration),
		units.CountOf(int64(o.rounds), "round", "rounds"))
	fmt.Fprintln(w, "| binary | peak RSS | steady RSS | marginal (peak − 1 VU's) | CPU µs per request | requests/s | s until every VU sent | first 2 (R + Z): requests ÷ 2 N |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- |")
	figs := []func(result) float64{
		func(r result) float64 { return r.peak },
		func(r result) float64 { return r.steady },
		func(r result) float64 { return r.marginal },
		func(r result) float64 { return r.cpu },
		func(r result) float64 { return r.rate },
		func(r result) float64 { return r.allSent },
		func(r result) float64 { return r.early },
	}
	for i, bin := range bins {
		fmt.Fprintf(w, "| %s |", bin)
		for j, f := range figs {
			format := units.Number
			if j == 5 {
				format = seconds
			}
			fmt.Fprintf(w, " %s |", spread(results[i], func(r result, _ int) float64 { return f(r) }, format))
		}
		fmt.Fprintln(w)
	}
	if len(bins) == 2 {
		fmt.Fprintf(w, "| ratio, paired |")
		for _, f := range figs {
			fmt.Fprintf(w, " %s |", spread(results[0], func(r result, i int) float64 { return f(r) / f(results[1][i]) }, units.Multiple))
		}
		fmt.Fprintln(w)
	}
}

// seconds formats how long until every VU sent, which is negative when
// some never did.
func seconds(s float64) string {
	if s < 0 {
		return "not all"
	}
	return units.Number(s)
}

// sentText says how long until every VU sent.
func sentText(s float64) string {
	if s < 0 {
		return "not every VU sent"
	}
	return "every VU sent after " + units.Number(s) + " s"
}

// spread formats the median, min and max of f over rs with format.
func spread(rs []result, f func(result, int) float64, format func(float64) string) string {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r, i)
	}
	slices.Sort(v)
	return format(v[len(v)/2]) + " (" + format(v[0]) + "–" + format(v[len(v)-1]) + ")"
}
