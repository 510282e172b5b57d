package app

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/loadlens/loadlens/internal/output"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/report"
	"github.com/loadlens/loadlens/internal/units"
)

// metricsOutputs are the outputs of the test file and of --out, each once.
func metricsOutputs(cfg RunConfig) []plan.Output {
	outs := slices.Clone(cfg.Plan.Outputs)
	for _, o := range cfg.Outs {
		if !slices.Contains(outs, o) {
			outs = append(outs, o)
		}
	}
	return outs
}

// checkOutputs refuses outputs that could not start, before the run
// makes its directory.
func checkOutputs(cfg RunConfig) error {
	if err := output.Check(metricsOutputs(cfg), os.Getenv); err != nil {
		return badInput{err}
	}
	return nil
}

// startOutputs starts the metrics outputs; none when there are none.
func (r *runner) startOutputs(undo *cleanups) error {
	outs := metricsOutputs(r.cfg)
	if len(outs) == 0 {
		return nil
	}
	cfg := output.Config{Outputs: outs, RunID: filepath.Base(r.dir), Layout: r.cfg.Plan.Layout, Start: r.start, Warn: r.warnNow}
	if r.cfg.tuneOutputs != nil {
		r.cfg.tuneOutputs(&cfg)
	}
	set, err := output.New(cfg)
	if err != nil {
		return badInput{err}
	}
	undo.add(func() { set.Close() })
	r.outs = set
	for _, o := range outs {
		fmt.Fprintf(r.cfg.Out, "output: %s (each second as it ends)\n", output.Name(o))
	}
	return nil
}

// warnNow prints a warning at once, kept out of the summary (which counts
// the output's losses its own way).
func (r *runner) warnNow(msg string) {
	r.mu.Lock()
	r.notices = append(r.notices, notice{text: msg, warning: true, passing: true})
	r.mu.Unlock()
}

// closeOutputs lets the outputs send what they hold, within their bound,
// and returns what became of each one's seconds, for the summary.
func (r *runner) closeOutputs() []report.OutputResult {
	var out []report.OutputResult
	for _, res := range r.outs.Close() {
		o := report.OutputResult{Output: res.Output, Offered: res.Offered, Sent: res.Sent, Dropped: res.Dropped()}
		var why []string
		if res.QueueFull > 0 {
			why = append(why, units.Count(res.QueueFull)+" dropped with its queue full")
		}
		if res.Failed > 0 {
			why = append(why, units.Count(res.Failed)+" failed to write, last: "+res.LastErr)
		}
		o.Reason = strings.Join(why, "; ")
		out = append(out, o)
	}
	return out
}

// badInput is an error in what the user gave (an output without its
// token): it exits ExitBadInput, its message as it is.
type badInput struct{ error }

func (badInput) Is(target error) bool { return target == ErrUsage }
func (e badInput) Unwrap() error      { return e.error }

// BadInput marks err as the user's mistake: it exits ExitBadInput, its
// message as it is.
func BadInput(err error) error { return badInput{err} }
