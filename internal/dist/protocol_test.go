package dist

import (
	"bytes"
	"math"
	"testing"
)

func TestSecondFrameRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		sec      int
		cpu      float64
		inFlight int64
	}{{0, 0.5, 0}, {3599, math.NaN(), 12345}, {1 << 20, 1.75, 1}} {
		b := secondFrame(tt.sec, tt.cpu, tt.inFlight, []byte("snap"))
		h, snap, err := parseSecondFrame(b)
		if err != nil || h.sec != tt.sec || h.inFlight != tt.inFlight || string(snap) != "snap" ||
			!(h.cpu == tt.cpu || math.IsNaN(h.cpu) && math.IsNaN(tt.cpu)) {
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
