package output

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"

	"github.com/loadlens/loadlens/internal/plan"
)

// poster sends a sink's bodies to its store over HTTP.
type poster struct {
	client *http.Client
	url    string
	shown  string      // the URL as messages show it, without credentials
	header http.Header // set on every request
}

// newPoster returns a poster with its own connections, so that an output
// never shares (or waits for) the load's.
func newPoster(url, shown string, header http.Header) poster {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 2
	return poster{client: &http.Client{Transport: tr}, url: url, shown: shown, header: header}
}

// post sends body and returns an error unless the store answers 2xx; the
// error quotes the start of the store's answer, which says what it refused.
func (p poster) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, v := range p.header {
		req.Header[k] = v
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if ue, ok := err.(*neturl.Error); ok {
			ue.URL = p.shown // net/http quotes the URL, with its password
		}
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s", resp.Status, oneLine(plan.Redact(string(msg)), 120)) // a store may quote the URL back
	}
	return nil
}

// oneLine is the start of a store's answer on one line, for a message:
// some stores answer an error with a whole HTML page.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// close frees the poster's idle connections.
func (p poster) close() { p.client.CloseIdleConnections() }
