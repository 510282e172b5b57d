package dist

import (
	"bytes"
	"encoding/binary"
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

// TestSecondFrameHostCPU: a second carries its host's CPU when the agent
// read it, and reads as before without it (an older agent's); a cut or
// impossible host section is refused.
func TestSecondFrameHostCPU(t *testing.T) {
	head := secondHead{sec: 7, cpu: 0.3, cpuWall: 1, stall: 0.001, wait: 0.01, inFlight: 3}
	old := secondFrame(head, []byte("LLSsnap"))
	withHost := head
	withHost.hostBusy, withHost.hostCPUs = 1.9, 300 // 300: a two-byte varint
	b := secondFrame(withHost, []byte("LLSsnap"))
	if h, snap, err := parseSecondFrame(b); err != nil || h.hostBusy != 1.9 || h.hostCPUs != 300 || string(snap) != "LLSsnap" || h.inFlight != 3 {
		t.Errorf("with its host's CPU: %+v %q %v", h, snap, err)
	}
	if h, snap, err := parseSecondFrame(old); err != nil || h.hostCPUs != 0 || string(snap) != "LLSsnap" || badHost(h) != "" {
		t.Errorf("an older agent's second: %+v %q %v", h, snap, err)
	}
	for cut := len(old) - len("LLSsnap") + 1; cut < len(b)-len("LLSsnap"); cut++ {
		if _, _, err := parseSecondFrame(b[:cut]); err == nil {
			t.Errorf("a host section cut at %d bytes was accepted", cut)
		}
	}
	for _, cpus := range []uint64{0, maxHostCPUs + 1, 1 << 63} {
		bad := binary.BigEndian.AppendUint64(append(old[:len(old)-len("LLSsnap"):len(old)-len("LLSsnap")], hostTag), math.Float64bits(1))
		bad = append(binary.AppendUvarint(bad, cpus), "LLSsnap"...)
		if _, _, err := parseSecondFrame(bad); err == nil {
			t.Errorf("a host of %d CPUs was accepted", cpus)
		}
	}
	for _, busy := range []float64{math.NaN(), -0.1, math.Inf(-1), 2.01, math.Inf(1)} {
		h := withHost
		h.hostBusy, h.hostCPUs = busy, 2
		if badHost(h) == "" {
			t.Errorf("%g cores busy of 2 was taken as a reading", busy)
		}
	}
	for _, busy := range []float64{0, 1.9, 2} {
		h := withHost
		h.hostBusy, h.hostCPUs = busy, 2
		if why := badHost(h); why != "" {
			t.Errorf("%g cores busy of 2 refused: %s", busy, why)
		}
	}
}

// TestSecondFrameOwnQuota: a second carries the agent's own CPU quota and
// throttling when a quota holds it, with or without its host's CPU, and
// reads as before without it; a cut section or impossible counts are
// refused.
func TestSecondFrameOwnQuota(t *testing.T) {
	head := secondHead{sec: 7, cpu: 0.3, cpuWall: 1, stall: 0.001, wait: 0.01, inFlight: 3}
	q := quotaReading{cores: 1.5, periods: 10, throttled: 6.2, held: 0.4}
	for _, host := range []int{0, 2} {
		h := head
		h.hostBusy, h.hostCPUs, h.quota = 1.9, host, q
		b := secondFrame(h, []byte("LLSsnap"))
		got, snap, err := parseSecondFrame(b)
		if err != nil || got.quota != q || got.hostCPUs != host || string(snap) != "LLSsnap" || badQuota(got) != "" {
			t.Errorf("host section %d CPUs: %+v %q %v %s", host, got, snap, err, badQuota(got))
		}
		noQuota := h
		noQuota.quota = quotaReading{}
		for cut := len(secondFrame(noQuota, nil)) + 1; cut < len(b)-len("LLSsnap"); cut++ {
			if _, _, err := parseSecondFrame(b[:cut]); err == nil {
				t.Errorf("a quota section cut at %d bytes was accepted", cut)
			}
		}
	}
	if h, _, err := parseSecondFrame(secondFrame(head, []byte("LLSsnap"))); err != nil || h.quota.cores != 0 || badQuota(h) != "" {
		t.Errorf("a second without a quota: %+v %v", h, err)
	}
	for _, bad := range []quotaReading{{cores: math.NaN()}, {cores: -1}, {cores: 1, periods: math.Inf(1)},
		{cores: 1, periods: 10, throttled: 11}, {cores: 1, periods: 10, throttled: 1, held: -0.1}, {cores: maxHostCPUs + 1}} {
		h := head
		h.quota = bad
		if badQuota(h) == "" {
			t.Errorf("%+v taken as a reading", bad)
		}
	}
}
