package k8s

import (
	"strconv"
	"time"

	"github.com/loadlens/loadlens/internal/units"
)

// The phases of an in-cluster run, as its status ConfigMap names them.
const (
	PhaseStarting = "starting" // the coordinator waits for the agents' pods
	PhaseRunning  = "running"
	PhaseFinished = "finished" // the verdict is in; the results are served until Keep ends
	PhaseFailed   = "failed"   // the run could not start or broke off; Message says why
)

// Status is what the coordinator in a pod publishes in its status
// ConfigMap, so that `kubectl get configmap RUN-status -o yaml` and
// `loadlens k8s status` read the same figures.
type Status struct {
	Phase    string
	Agents   int   // agents the run has
	Ready    int   // agents whose pods are ready (while starting) or running the test
	Lost     int   // agents lost mid-run
	Second   int   // seconds of the run merged so far
	Requests int64 // samples so far: requests, gRPC calls or sessions (Live.Unit)
	Failures int64 // of which failed
	Live           // the latest second's figures, as a local run's terminal line shows them
	Verdict  string
	ExitCode int    // with PhaseFinished or PhaseFailed: what the coordinator exits with
	RunDir   string // the run directory's name, once it exists
	Message  string
	Updated  time.Time // when the coordinator last wrote it: a stale one is a coordinator gone
}

// Live is the latest second of the run as the coordinator's own terminal
// line shows it (internal/live's Status), for `k8s attach` to show the same.
type Live struct {
	Elapsed   time.Duration // of the run so far
	Length    time.Duration // the planned length; 0 when unknown
	Rate      float64       // requests per second in the latest second
	P95       time.Duration // of the latest second; 0: no request completed in it
	ErrorRate float64       // failed / requests in the latest second
	InFlight  int64         // requests sent and not answered
	VUs       int64         // active VUs
	VUsMax    int64         // allocated VUs
	Dropped   int64         // iterations dropped so far
	Unit      units.Unit    // what Requests and Rate count; zero: requests
}

// Data is the status as a ConfigMap's data.
func (s *Status) Data() map[string]string {
	d := map[string]string{
		"phase": s.Phase, "agents": strconv.Itoa(s.Agents), "agents-ready": strconv.Itoa(s.Ready),
		"agents-lost": strconv.Itoa(s.Lost), "seconds": strconv.Itoa(s.Second), "requests": strconv.FormatInt(s.Requests, 10),
		"failures": strconv.FormatInt(s.Failures, 10), "verdict": s.Verdict, "exit-code": strconv.Itoa(s.ExitCode),
		"run-dir": s.RunDir, "message": s.Message,
		"elapsed": s.Elapsed.String(), "length": s.Length.String(), "rate": strconv.FormatFloat(s.Rate, 'f', 1, 64),
		"p95": s.P95.String(), "error-rate": strconv.FormatFloat(s.ErrorRate, 'f', 4, 64), "in-flight": strconv.FormatInt(s.InFlight, 10),
		"vus": strconv.FormatInt(s.VUs, 10), "vus-max": strconv.FormatInt(s.VUsMax, 10), "dropped": strconv.FormatInt(s.Dropped, 10),
		"unit": s.Unit.Or().Many,
	}
	if !s.Updated.IsZero() {
		d["updated"] = s.Updated.UTC().Format(time.RFC3339)
	}
	return d
}

// ParseStatus reads a status ConfigMap's data; a field missing or
// mangled reads as its zero value.
func ParseStatus(d map[string]string) Status {
	num := func(k string) int64 { n, _ := strconv.ParseInt(d[k], 10, 64); return n }
	s := Status{Phase: d["phase"], Agents: int(num("agents")), Ready: int(num("agents-ready")), Lost: int(num("agents-lost")),
		Second: int(num("seconds")), Requests: num("requests"), Failures: num("failures"), Verdict: d["verdict"],
		ExitCode: int(num("exit-code")), RunDir: d["run-dir"], Message: d["message"]}
	s.Updated, _ = time.Parse(time.RFC3339, d["updated"])
	dur := func(k string) time.Duration { v, _ := time.ParseDuration(d[k]); return v }
	frac := func(k string) float64 { v, _ := strconv.ParseFloat(d[k], 64); return v }
	s.Live = Live{Elapsed: dur("elapsed"), Length: dur("length"), Rate: frac("rate"), P95: dur("p95"), ErrorRate: frac("error-rate"),
		InFlight: num("in-flight"), VUs: num("vus"), VUsMax: num("vus-max"), Dropped: num("dropped"), Unit: unitNamed(d["unit"])}
	return s
}

// unitNamed reads the unit a status names by its plural ("calls"); any
// other, and an earlier coordinator's status, which names none, is the
// zero Unit: requests.
func unitNamed(many string) units.Unit {
	for _, u := range []units.Unit{units.Calls, units.Sessions} {
		if u.Many == many {
			return u
		}
	}
	return units.Unit{}
}
