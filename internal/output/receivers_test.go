package output

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/prometheus/prometheus/prompb"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an in-process store: it keeps every body it was sent, after
// checking the request's headers, and answers with status.
type receiver struct {
	got    chan struct{} // told of every body, when made
	mu     sync.Mutex
	bodies [][]byte
	errs   []string
}

func (rc *receiver) add(b []byte) {
	rc.mu.Lock()
	rc.bodies = append(rc.bodies, b)
	rc.mu.Unlock()
	if rc.got != nil {
		rc.got <- struct{}{}
	}
}

func (rc *receiver) fail(msg string) {
	rc.mu.Lock()
	rc.errs = append(rc.errs, msg)
	rc.mu.Unlock()
}

// serve starts the receiver; want are headers every request must carry.
func (rc *receiver) serve(t *testing.T, want map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range want {
			if got := r.Header.Get(k); got != v {
				rc.fail(k + ": " + got + ", want " + v)
			}
		}
		if r.Method != http.MethodPost {
			rc.fail("method " + r.Method)
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			rc.fail(err.Error())
		}
		rc.add(b)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (rc *receiver) check(t *testing.T) [][]byte {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, e := range rc.errs {
		t.Error(e)
	}
	return rc.bodies
}

// decodeRW decodes a remote-write body as Prometheus does.
func decodeRW(t *testing.T, body []byte) *prompb.WriteRequest {
	t.Helper()
	raw, err := snappy.Decode(nil, body)
	if err != nil {
		t.Fatalf("snappy: %v", err)
	}
	var req prompb.WriteRequest
	if err := req.Unmarshal(raw); err != nil {
		t.Fatalf("protobuf: %v", err)
	}
	return &req
}

// decodeOTLP decodes an OTLP body. MetricsData has the wire format of
// ExportMetricsServiceRequest (field 1, repeated ResourceMetrics).
func decodeOTLP(t *testing.T, body []byte) *metricspb.MetricsData {
	t.Helper()
	var m metricspb.MetricsData
	if err := proto.Unmarshal(body, &m); err != nil {
		t.Fatalf("protobuf: %v", err)
	}
	return &m
}
