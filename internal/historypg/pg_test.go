package historypg

import (
	"context"
	"fmt"
	"net"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/history"
	"github.com/loadlens/loadlens/internal/testkit"
)

func record(host string, i int) history.Run {
	return history.Run{ID: fmt.Sprintf("20261120-%06d-shop", i), Host: host, Name: "shop", Status: "completed",
		Start: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
		Path:  fmt.Sprintf("/ci/results/20261120-%06d-shop", i), Tags: map[string]string{"commit": fmt.Sprintf("c%d", i), "writer": host}, Shape: "browse: arrival-rate from 50/s, 50/s over 1m",
		ShapeID: history.ShapeID("browse: arrival-rate from 50/s, 50/s over 1m"), Requests: 3000, RPS: 50, Findings: i % 2,
		Endpoints: []history.Endpoint{{Name: "GET /", Requests: 3000, RPS: 50, P50: 10 * time.Millisecond, P95: time.Duration(20+i) * time.Millisecond, P99: 40 * time.Millisecond}}}
}

// Two CI jobs on two machines write one fresh store at once: each opens
// it (making its table under the advisory lock), records its runs one at a
// time, and one run is recorded by both (a retried job): every run is
// there once, whole, and reads back as written.
func TestTwoConcurrentWriters(t *testing.T) {
	dsn := testkit.StartPostgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const perWriter = 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*perWriter+2)
	for _, host := range []string{"ci-a", "ci-b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, dsn)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for i := range perWriter {
				errs <- s.Put(ctx, record(host, i))
			}
			errs <- s.Put(ctx, record("shared", 0)) // the same run from both writers
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2*perWriter+1 {
		t.Fatalf("%d runs in the store, want %d", len(runs), 2*perWriter+1)
	}
	want := map[string]history.Run{}
	for _, host := range []string{"ci-a", "ci-b"} {
		for i := range perWriter {
			r := record(host, i)
			want[r.Key()] = r
		}
	}
	want[record("shared", 0).Key()] = record("shared", 0)
	for _, r := range runs {
		if w := want[r.Key()]; !reflect.DeepEqual(r, w) {
			t.Errorf("run %s reads back as\n%+v\nwant\n%+v", r.Key(), r, w)
		}
	}
	for i := 1; i < len(runs); i++ {
		if runs[i].Start.Before(runs[i-1].Start) {
			t.Fatalf("runs not oldest first at %d", i)
		}
	}
}

// A store at a wrong address is an error naming the store, not a hang.
func TestOpenRefusesAnUnreachableStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port that was free a moment ago: nothing answers there
	_, err = Open(ctx, "postgres://nobody@"+addr+"/none?sslmode=disable&connect_timeout=5")
	if err == nil {
		t.Fatal("Open succeeded against a closed port")
	}
}
