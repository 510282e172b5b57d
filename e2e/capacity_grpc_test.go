package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	"github.com/loadlens/loadlens/internal/capacity"
)

// shedding is grpc-go's interop server behind k workers of a fixed service
// time and a queue of q: a call finding k+q in the server is refused with
// RESOURCE_EXHAUSTED at once, as a server shedding load does. Its capacity
// is k over the service time, known by construction, and a call's latency
// never passes (q/k+1) service times: past its capacity only the refusals
// grow, so a search finds it only by counting them as errors.
type shedding struct {
	addr                   string
	k                      int
	in, served, busy, shed atomic.Int64
}

func startShedding(t *testing.T, k, q int, service time.Duration) *shedding {
	t.Helper()
	s := &shedding{k: k}
	slots := make(chan struct{}, k)
	limit := int64(k + q)
	gate := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if s.in.Add(1) > limit {
			s.in.Add(-1)
			s.shed.Add(1)
			return nil, status.Error(codes.ResourceExhausted, "queue full")
		}
		defer s.in.Add(-1)
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		start := time.Now()
		time.Sleep(service) // the service time under test, not synchronisation
		s.busy.Add(int64(time.Since(start)))
		s.served.Add(1)
		<-slots
		return h(ctx, req)
	}
	srv := grpc.NewServer(grpc.UnaryInterceptor(gate))
	testgrpc.RegisterTestServiceServer(srv, interop.NewTestServer())
	reflection.Register(srv)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	s.addr = lis.Addr().String()
	return s
}

// capacity is k over the mean service time served: on a busy host a sleep
// of the service time takes longer, and so the server serves fewer.
func (s *shedding) capacity() float64 {
	n := s.served.Load()
	if n == 0 {
		return 0
	}
	return float64(s.k) / time.Duration(s.busy.Load()/n).Seconds()
}

// TestCapacityOfAGRPCService searches a gRPC unary test through the binary
// against a server of known capacity that sheds load with
// RESOURCE_EXHAUSTED. The search judges its steps on grpc_req_duration,
// the SLO's latency, with the busy-host limits it sets (a quarter of
// 150ms), and finds the boundary where the refused calls pass the error
// budget. Before, the search read no latency limit from a gRPC SLO, and
// a percentile of calls refused in microseconds passed it.
func TestCapacityOfAGRPCService(t *testing.T) {
	if testing.Short() {
		t.Skip("a capacity search of about five 1-second steps")
	}
	srv := startShedding(t, 2, 3, 20*time.Millisecond) // 100 calls/s on a quiet host; latency at most 60ms
	dir := t.TempDir()
	yaml := fmt.Sprintf(`name: calls
scenarios:
  s:
    rate: 50
    duration: 5s
    max_vus: 100
    flow:
      - grpc: grpc://%s
        method: grpc.testing.TestService/UnaryCall
        message: {response_size: 3}
        timeout: 2s
thresholds:
  grpc_req_duration: ["p(95) < 150ms"]
  grpc_msgs_received: ["count > 0"]
`, srv.addr)
	if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	r := loadlens(t, dir, "capacity", "t.yaml", "--start", "40", "--factor", "2", "--hold", "1s", "--budget", "10s",
		"--precision", "0.25", "--results", "cap")
	out := r.stdout + r.stderr
	if strings.Contains(out, "host too busy") {
		t.Skipf("the host was too busy to judge a step:\n%s", out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cap", "*", "capacity.json"))
	if len(files) != 1 {
		t.Fatalf("capacity.json: %v (exit %d)\n%s", files, r.code, out)
	}
	var res capacity.Result
	if raw, err := os.ReadFile(files[0]); err != nil || json.Unmarshal(raw, &res) != nil {
		t.Fatalf("capacity.json: %v", err)
	}
	if c := res.Config; c.Latency != "grpc_req_duration" || c.LatencyLimit != 150*time.Millisecond || c.Percentile != 95 ||
		c.MaxLag != 150*time.Millisecond/4 {
		t.Errorf("judged on %q, limit %v, p(%v), lag limit %v; want grpc_req_duration, 150ms, p(95), 37.5ms", c.Latency,
			c.LatencyLimit, c.Percentile, c.MaxLag)
	}
	want := srv.capacity()
	if r.code != 0 || res.Highest < 0.5*want || res.Highest > 1.3*want {
		t.Fatalf("highest sustainable rate %.1f calls/s (exit %d), want %.1f/s (2 workers over the service time the server measured) within -50%%/+30%%\n%s",
			res.Highest, r.code, want, out)
	}
	if srv.shed.Load() == 0 || len(res.FirstFailure) == 0 || !strings.Contains(strings.Join(res.FirstFailure, "; "), "error budget") {
		t.Errorf("the first failing step failed on %q with %d calls refused: want the error budget of the refused calls\n%s",
			res.FirstFailure, srv.shed.Load(), out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "latency: grpc_req_duration") {
		t.Errorf("the search's first line does not say its latency is grpc_req_duration:\n%s", out)
	}
	t.Logf("found %.1f calls/s for %.1f in %d steps (%d retried), %d refused", res.Highest, want, len(res.Steps), res.Retries, srv.shed.Load())
	estimateFromCalls(t, dir, filepath.Dir(files[0]), res, want)
}

// estimateFromCalls plans 2,000 calls/s from the gRPC search in capDir
// through the binary: in calls/s, dividing by the calls per second the
// search found, so as many instances as the server's true capacity (want,
// calls/s) asks for within the search's tolerance. Before, the plan said
// req/s, and --from-run of a step's own run judged it on the starter
// test's http_req_duration.
func estimateFromCalls(t *testing.T, dir, capDir string, res capacity.Result, want float64) {
	t.Helper()
	const load = 2000.0
	r := loadlens(t, dir, "estimate", "--from-run", capDir, "--rps", "2000")
	out := strings.Join(strings.Fields(r.stdout), " ")
	instances := int(math.Ceil(load/res.HighestRequests - 1e-9))
	lo, hi := int(math.Ceil(load/(1.3*want))), int(math.Ceil(load/(0.5*want)))
	if r.code != 0 || !strings.Contains(out, fmt.Sprintf("= %d instances", instances)) || instances < lo || instances > hi {
		t.Fatalf("estimate (exit %d) for %.0f calls/s over %.1f calls/s per instance: want %d instances (%d-%d for the server's %.1f calls/s)\n%s%s",
			r.code, load, res.HighestRequests, instances, lo, hi, want, r.stdout, r.stderr)
	}
	if !strings.Contains(out, "2,000 calls/s ÷ ") || strings.Contains(out, "req/s") {
		t.Errorf("the plan is not in calls/s:\n%s", r.stdout)
	}
}
