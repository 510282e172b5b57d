package metrics

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"io"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func TestBucketLayoutMatchesLibrary(t *testing.T) {
	if got := len(newDense().Export().Counts); got != countsLen {
		t.Fatalf("the library's histogram has %d buckets, this package assumes %d", got, countsLen)
	}
	values := []int64{0, 1, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 100_000, 1 << 20, 33_554_431, 33_554_432, histHighest}
	for _, v := range values {
		d := newDense()
		if err := d.RecordValue(v); err != nil {
			t.Fatal(err)
		}
		counts := d.Export().Counts
		idx := countsIndex(v)
		if counts[idx] != 1 {
			t.Errorf("value %d: countsIndex %d, but the library counts it elsewhere", v, idx)
		}
		p := NewHist()
		p.mergeDense(d)
		p.p.ForEachBucket(func(value, _ int64) bool {
			if bucketValue(idx) != value {
				t.Errorf("value %d: bucketValue(%d) = %d, library says %d", v, idx, bucketValue(idx), value)
			}
			return true
		})
	}
}

func TestLEB128RoundTrip(t *testing.T) {
	tests := []struct {
		name string
		v    int64
	}{
		{"zero", 0}, {"one", 1}, {"minus one", -1}, {"seven bits", 63}, {"eight bits", 64},
		{"large", 1 << 40}, {"max", math.MaxInt64}, {"min", math.MinInt64}, {"negative run", -17408},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := appendLEB128(nil, tt.v)
			if len(b) > maxLEB128Len {
				t.Fatalf("%d bytes, at most %d allowed", len(b), maxLEB128Len)
			}
			got, n := readLEB128(b)
			if got != tt.v || n != len(b) {
				t.Errorf("read %d (%d bytes), want %d (%d bytes)", got, n, tt.v, len(b))
			}
			if _, n := readLEB128(b[:len(b)-1]); n != 0 {
				t.Error("a truncated value was read")
			}
		})
	}
}

// TestHistCodecInteroperates checks that this encoder writes exactly the
// library's uncompressed V2 bytes and that each side decodes the other's.
func TestHistCodecInteroperates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tests := []struct {
		name    string
		samples []time.Duration
	}{
		{"empty", nil},
		{"one value", []time.Duration{time.Millisecond}},
		{"zero and the maximum", []time.Duration{0, time.Hour}},
		{"adjacent buckets", []time.Duration{1 * time.Microsecond, 2 * time.Microsecond, 4 * time.Microsecond}},
		{"latency-like", func() []time.Duration {
			var s []time.Duration
			for range 20000 {
				s = append(s, latency(rng))
			}
			return s
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHist()
			for _, d := range tt.samples {
				h.Record(d)
			}
			var hc histCodec
			mine, err := hc.appendHist(nil, h)
			if err != nil {
				t.Fatal(err)
			}
			text, err := h.p.Encode()
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := base64.StdEncoding.DecodeString(string(text))
			if err != nil {
				t.Fatal(err)
			}
			if a, b := inflate(t, mine), inflate(t, theirs); !bytes.Equal(a, b) {
				t.Errorf("uncompressed encoding differs from the library's:\n%x\n%x", a, b)
			}
			// The library decodes ours ...
			lib, err := hdr.DecodePacked([]byte(base64.StdEncoding.EncodeToString(mine)))
			if err != nil {
				t.Fatalf("library cannot decode this encoding: %v", err)
			}
			assertSameHist(t, "library-decoded", &Hist{p: lib}, h)
			// ... and ours decodes the library's, twice with one codec.
			for range 2 {
				got, err := hc.decode(theirs)
				if err != nil {
					t.Fatalf("cannot decode the library's encoding: %v", err)
				}
				assertSameHist(t, "decoded", got, h)
			}
		})
	}
}

func inflate(t testing.TB, enc []byte) []byte {
	t.Helper()
	r, err := zlib.NewReader(bytes.NewReader(enc[8:]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHistCodecRejectsCorruptInput(t *testing.T) {
	var hc histCodec
	good, err := hc.appendHist(nil, histOf(1, 2, 3, 500))
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte{}, good...)
	flipped[len(flipped)-1] ^= 0xff // inside the zlib checksum
	tests := []struct {
		name string
		raw  []byte
	}{
		{"short", good[:5]},
		{"bad cookie", append([]byte{0, 0, 0, 0}, good[4:]...)},
		{"truncated", good[:len(good)-3]},
		{"checksum", flipped},
		{"trailing byte", append(append([]byte{}, good...), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := hc.decode(tt.raw); err == nil {
				t.Error("corrupt histogram decoded without error")
			}
		})
	}
}

func FuzzHistPayload(f *testing.F) {
	var hc histCodec
	for _, h := range []*Hist{NewHist(), histOf(1, 2, 3), histOf(1, 1000, 60000)} {
		enc, err := hc.appendHist(nil, h)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(inflate(f, enc)[v2HeaderSize:])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		h, err := parsePayload(payload)
		if err != nil {
			return
		}
		// Whatever parses encodes and decodes to the same histogram.
		enc, err := hc.appendHist(nil, h)
		if err != nil {
			t.Fatal(err)
		}
		got, err := hc.decode(enc)
		if err != nil {
			t.Fatalf("decoding a re-encoded histogram: %v", err)
		}
		if got.Count() != h.Count() || got.Max() != h.Max() || got.Min() != h.Min() {
			t.Fatalf("round trip changed the histogram: count %d→%d max %v→%v", h.Count(), got.Count(), h.Max(), got.Max())
		}
	})
}

// TestMaxHistBinaryBoundsTheWorstHistogram: a histogram with every bucket
// counted, each count random and as large as an int64 total allows (8
// bytes of LEB128), encodes within MaxHistBinary, which a coordinator
// bounds an agent's second by.
func TestMaxHistBinaryBoundsTheWorstHistogram(t *testing.T) {
	h := NewHist()
	rng := rand.New(rand.NewPCG(1, 2))
	filled := 0
	for idx := range countsLen {
		if h.packed().RecordValues(bucketValue(idx), 1<<48+rng.Int64N(1<<48)) == nil {
			filled++
		}
	}
	var hc histCodec
	b, err := appendHist(nil, &hc, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > MaxHistBinary || filled != countsLen {
		t.Errorf("%d buckets counted encode in %d bytes; MaxHistBinary is %d: want every bucket counted, within it", filled, len(b), MaxHistBinary)
	}
}
