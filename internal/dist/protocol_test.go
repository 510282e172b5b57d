package dist

import (
	"bytes"
	"math"
	"testing"
)

func TestSecondFrameRoundTrip(t *testing.T) {
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tt := range []secondHead{
		{sec: 0, cpu: 0.5, cpuWall: 1.002, stall: 0.0002, wait: 0.01},
		{sec: 3599, cpu: math.NaN(), stall: math.NaN(), wait: math.NaN(), inFlight: 12345},
		{sec: 1 << 20, cpu: 1.75, stall: 0.25, wait: 1.5, inFlight: 1},
	} {
		b := secondFrame(tt, []byte("snap"))
		h, snap, err := parseSecondFrame(b)
		if err != nil || h.sec != tt.sec || h.inFlight != tt.inFlight || string(snap) != "snap" ||
			!same(h.cpu, tt.cpu) || h.cpuWall != tt.cpuWall || !same(h.stall, tt.stall) || !same(h.wait, tt.wait) {
			t.Errorf("round trip of %+v: %+v %q %v", tt, h, snap, err)
		}
		for cut := 0; cut < len(b)-len("snap"); cut++ {
			if _, _, err := parseSecondFrame(b[:cut]); err == nil {
				t.Errorf("a frame cut at %d bytes was accepted", cut)
			}
		}
	}
}

func TestFramesRoundTripAndRefuseOversize(t *testing.T) {
	var buf bytes.Buffer
	c := newConn(&buf)
	if err := c.send(kindHello, hello{Token: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := c.send(kindBeat, nil); err != nil {
		t.Fatal(err)
	}
	var h hello
	if err := c.expect(kindHello, &h); err != nil || h.Token != "t" {
		t.Fatalf("hello: %+v %v", h, err)
	}
	if err := c.expect(kindHello, nil); err == nil {
		t.Fatal("a beat was taken for a hello")
	}
	buf.Reset()
	buf.Write([]byte{kindJob, 0xff, 0xff, 0xff, 0xff})
	if _, err := newConn(&buf).read(); err == nil {
		t.Fatal("a 4 GiB frame header was accepted")
	}
}
