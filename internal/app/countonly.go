package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/loadlens/loadlens/internal/engine"
	"github.com/loadlens/loadlens/internal/metrics"
	"github.com/loadlens/loadlens/internal/units"
)

// runCountOnly runs a plan with the bookkeeping switched off: no
// per-second histograms, no run.db, no dashboard, only counts. It exists
// to measure what the bookkeeping costs (bench/), not for real tests.
// It judges nothing, so a plan with thresholds is refused before it runs:
// a gate that measured nothing must not exit 0.
func runCountOnly(ctx context.Context, cfg RunConfig) (RunResult, error) {
	if len(cfg.Plan.Thresholds) > 0 {
		return RunResult{ExitCode: ExitBadInput}, cfg.Plan.ThresholdsError("--no-metrics measures no thresholds: drop --no-metrics or the thresholds")
	}
	counter := metrics.NewCounter(2 * runtime.GOMAXPROCS(0))
	start := time.Now().Add(engine.PrepareLead) // the engine prepares the VUs before the clock starts
	err := engine.New(cfg.Plan, counter, engine.Options{Segment: cfg.Segment, Start: start}).Run(ctx)
	elapsed := time.Since(start)
	req, failed, dropped := counter.Totals()
	rate := float64(req) / elapsed.Seconds()
	off := "per-second metrics, run.db and the dashboard were off"
	if len(cfg.Outs)+len(cfg.Plan.Outputs) > 0 {
		off = "per-second metrics, run.db, the dashboard and the outputs were off" // nothing per second to send
	}
	u := engine.PlanUnit(cfg.Plan) // "calls" for gRPC, "sessions" for WebSocket and SSE
	fmt.Fprintf(cfg.Out, "%s in %s (%s), %s failed, %s dropped; %s\n",
		u.Count(req), units.Duration(elapsed), u.Rate(rate), units.Count(failed), units.Count(dropped), off)
	res := RunResult{Status: StatusCompleted, Passed: true}
	if err != nil {
		res.Status, res.ExitCode = StatusFailed, ExitRunFailed
	}
	if cfg.SummaryJSON != "" {
		b, _ := json.Marshal(map[string]any{"metrics": map[string]any{ // numbers only: cannot fail
			"http_reqs":          map[string]any{"count": req, "rate": rate},
			"dropped_iterations": map[string]any{"count": dropped, "rate": float64(dropped) / elapsed.Seconds()},
			"http_req_failed":    map[string]any{"passes": failed, "fails": req - failed, "value": float64(failed) / max(float64(req), 1)},
		}})
		if werr := os.WriteFile(cfg.SummaryJSON, append(b, '\n'), 0o644); werr != nil && err == nil {
			err = werr
		}
	}
	return res, err
}
