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
