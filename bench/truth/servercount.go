package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Counts is what a server itself counted of the requests to some routes:
// how many it answered, by status.
type Counts map[int]int64

// Total is every answer counted.
func (c Counts) Total() int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

// Failed is the answers with a status of 400 or more (5xx and 4xx: the
// catalogue's loads send nothing a correct server refuses).
func (c Counts) Failed() int64 {
	var n int64
	for s, v := range c {
		if s >= 400 {
			n += v
		}
	}
	return n
}

// Minus returns c − before, per status.
func (c Counts) Minus(before Counts) Counts {
	out := Counts{}
	for s, v := range c {
		if d := v - before[s]; d != 0 {
			out[s] = d
		}
	}
	return out
}

// Counter reads a server's own count of the requests to its routes.
type Counter interface {
	Counts(ctx context.Context) (Counts, error)
}

// metricsCounter counts from a Prometheus exposition's
// http_server_requests_seconds_count{uri, status} (Micrometer's, which
// the demo shop writes too), over the given routes.
type metricsCounter struct {
	url    string
	routes map[string]bool
}

func (m metricsCounter) Counts(ctx context.Context) (Counts, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", m.url, nil)
	if err != nil {
		return nil, err
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", m.url, r.Status)
	}
	return countRequests(r.Body, m.routes)
}

// countRequests sums http_server_requests_seconds_count by status over routes.
func countRequests(rd io.Reader, routes map[string]bool) (Counts, error) {
	out := Counts{}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "http_server_requests_seconds_count{") {
			continue
		}
		labels, value, ok := splitSample(line)
		if !ok || !routes[labels["uri"]] {
			continue
		}
		st, err := strconv.Atoi(labels["status"])
		if err != nil {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("bad sample %q", line)
		}
		out[st] += int64(v)
	}
	return out, sc.Err()
}

// splitSample parses `name{k="v",...} value [ts]` into labels and value.
func splitSample(line string) (map[string]string, string, bool) {
	open := strings.IndexByte(line, '{')
	if open < 0 {
		return nil, "", false
	}
	labels := map[string]string{}
	i := open + 1
	for i < len(line) && line[i] != '}' {
		eq := strings.IndexByte(line[i:], '=')
		if eq < 0 || i+eq+1 >= len(line) || line[i+eq+1] != '"' {
			return nil, "", false
		}
		key := strings.TrimSpace(strings.TrimPrefix(line[i:i+eq], ","))
		j := i + eq + 2
		var v strings.Builder
		for ; j < len(line) && line[j] != '"'; j++ {
			if line[j] == '\\' && j+1 < len(line) {
				j++
				if line[j] == 'n' {
					v.WriteByte('\n')
					continue
				}
			}
			v.WriteByte(line[j])
		}
		labels[key] = v.String()
		i = j + 1
		if i < len(line) && line[i] == ',' {
			i++
		}
	}
	fs := strings.Fields(line[min(i+1, len(line)):])
	if len(fs) == 0 {
		return nil, "", false
	}
	return labels, fs[0], true
}

// logCounter counts nginx's access log, one status per line.
type logCounter struct{ path string }

func (l logCounter) Counts(context.Context) (Counts, error) {
	f, err := os.Open(l.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := Counts{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		st, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil {
			return nil, fmt.Errorf("%s: a line that is not a status: %q", l.path, sc.Text())
		}
		out[st]++
	}
	return out, sc.Err()
}
