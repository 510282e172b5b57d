package output

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// Sink writes frames to one store. Write gets the frames in order, one or
// more at once (a batch when the store was slower than a second), and must
// return when ctx ends.
type Sink interface {
	Write(ctx context.Context, frames []*Frame) error
	Close()
}

// InfluxTokenEnv names the variable that holds the InfluxDB 2 token (plan's,
// which the k8s commands put into a run's Secret).
const InfluxTokenEnv = plan.InfluxTokenEnv

// newSink returns the sink of one output.
func newSink(o plan.Output, runID string, getenv func(string) string, warn func(string, ...any)) (Sink, error) {
	shown := strings.TrimPrefix(Name(o), o.Kind+"=")
	switch o.Kind {
	case plan.OutPrometheusRW:
		return newPromRW(newPoster(o.URL, shown, http.Header{
			"Content-Type":                      {"application/x-protobuf"},
			"Content-Encoding":                  {"snappy"},
			"X-Prometheus-Remote-Write-Version": {"0.1.0"},
		}), runID, warn), nil
	case plan.OutInfluxDB:
		return newInflux(newPoster(o.URL, shown, http.Header{"Content-Type": {"text/plain; charset=utf-8"}}), runID), nil
	case plan.OutInfluxDB2:
		token := getenv(InfluxTokenEnv)
		if token == "" {
			return nil, fmt.Errorf("%s needs a token: set $%s", o.Kind, InfluxTokenEnv)
		}
		return newInflux(newPoster(o.URL, shown, http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Authorization": {"Token " + token}}), runID), nil
	case plan.OutOTLP:
		return newOTLP(newPoster(o.URL, shown, http.Header{"Content-Type": {"application/x-protobuf"}}), runID), nil
	}
	return nil, fmt.Errorf("unknown output kind %q", o.Kind)
}
