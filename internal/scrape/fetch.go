package scrape

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// acceptHeader asks for the classic text format, which every exporter
// speaks and which parses without the protobuf or OpenMetrics machinery.
const acceptHeader = "text/plain;version=0.0.4;q=1,*/*;q=0.1"

// scrapeError is a failed scrape: its kind and a message for people.
type scrapeError struct {
	kind string
	msg  string
}

// Error returns the message.
func (e *scrapeError) Error() string { return e.msg }

// kindOf returns the kind of a scrape's error.
func kindOf(err error) string {
	var se *scrapeError
	if errors.As(err, &se) {
		return se.kind
	}
	return KindOther
}

// fetch GETs the exposition at url within timeout.
func fetch(ctx context.Context, client *http.Client, url string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, &scrapeError{KindOther, fmt.Sprintf("bad request: %v", err)}
	}
	req.Header.Set("Accept", acceptHeader)
	req.Header.Set("User-Agent", "loadlens")
	resp, err := client.Do(req)
	if err != nil {
		return nil, transportError(err, timeout)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, &scrapeError{KindHTTPStatus, "HTTP " + resp.Status}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodySize+1))
	switch {
	case err != nil:
		return nil, transportError(err, timeout)
	case len(body) > MaxBodySize:
		return nil, &scrapeError{KindOther, fmt.Sprintf("the exposition is larger than %d MiB; choose fewer series at the exporter", MaxBodySize>>20)}
	}
	return body, nil
}

// transportError classifies a failure to get a response.
func transportError(err error, timeout time.Duration) error {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return &scrapeError{KindTimeout, fmt.Sprintf("no complete response within %s", timeout)}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &scrapeError{KindRefused, "connection refused"}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the method and URL it adds are in the record already
	}
	return &scrapeError{KindOther, err.Error()}
}

// parse parses Prometheus text exposition; it stops when ctx ends, so a
// large exposition does not hold the run's end.
func parse(ctx context.Context, body []byte) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(&yieldingReader{r: bytes.NewReader(body), pause: yieldPause, ctx: ctx})
	if ctx.Err() != nil {
		return nil, &scrapeError{KindOther, "the run ended during the parse"}
	}
	if err != nil {
		return nil, &scrapeError{KindParse, fmt.Sprintf("not Prometheus text exposition: %v", err)}
	}
	return fams, nil
}
