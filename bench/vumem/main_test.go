package main

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name, text string
		rss, hwm   float64
		ok         bool
	}{
		{"both", "Name:\tloadlens\nVmHWM:\t  235520 kB\nVmRSS:\t  200000 kB\nThreads:\t5\n", 200000 * 1024, 235520 * 1024, true},
		{"exiting: no memory lines", "Name:\tloadlens\nState:\tZ (zombie)\n", 0, 0, false},
		{"another unit", "VmHWM:\t1 MB\nVmRSS:\t1 kB\n", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rss, hwm, ok := parseStatus([]byte(tt.text))
			if rss != tt.rss || hwm != tt.hwm || ok != tt.ok {
				t.Errorf("parseStatus = %v, %v, %v; want %v, %v, %v", rss, hwm, ok, tt.rss, tt.hwm, tt.ok)
			}
		})
	}
}

// TestServerAnswersEachHead sends heads split across writes and pipelined,
// and reads one reply per head.
func TestServerAnswersEachHead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go serve(ln, 0)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	head := "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
	for _, part := range []string{head[:10], head[10:] + head, head} {
		if _, err := c.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(c)
	want := strings.Repeat(reply, 3)
	got := make([]byte, len(want))
	if _, err := io.ReadFull(r, got); err != nil {
		t.Fatalf("read %q: %v", got, err)
	}
	if string(got) != want {
		t.Errorf("got %q, want 3 replies", got)
	}
}

// TestStartShape: every VU's first request and the requests of the first
// 2 (R + Z) read from the arrival times.
func TestStartShape(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms ...int) []time.Time {
		var ts []time.Time
		for _, m := range ms {
			ts = append(ts, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return ts
	}
	tests := []struct {
		name        string
		all, firsts []time.Time
		allSent     time.Duration
		early       float64
	}{
		// 2 VUs, R 1 s, Z 1 s: first requests at 0 and 0.5 s, second at 2 and 2.5, third at 4
		{"in shape", at(0, 500, 2000, 2500, 4000), at(0, 500), 500 * time.Millisecond, 1},
		// the second VU held back for a response time: its first at 1 s, its second at 3
		{"held back", at(0, 1000, 2000, 3000, 4000), at(0, 1000), time.Second, 1},
		{"one VU never sent", at(0, 2000), at(0), -1, 0.5},
		{"nothing", nil, nil, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sends{all: tt.all, firsts: tt.firsts}
			allSent, early := s.startShape(2, time.Second, time.Second)
			if allSent != tt.allSent || early != tt.early {
				t.Errorf("startShape = %v, %v; want %v, %v", allSent, early, tt.allSent, tt.early)
			}
		})
	}
}
