package metrics

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/loadlens/loadlens/internal/sample"
)

// fullSnapshot returns a snapshot with every field set.
func fullSnapshot(t testing.TB) *Snapshot {
	t.Helper()
	rec := NewRecorder(testLayout(), 2)
	for i := range 500 {
		r := request(i, 1500*time.Millisecond)
		sink := rec.Sink(i)
		sink.Request(&r)
		sink.Check(int32(i%2), r.End, i%3 != 0)
		sink.Iteration(int32(i%2), r.End, r.Duration*3)
		sink.Lag(int32(i%2), r.End, time.Duration(i%5)*time.Millisecond)
		sink.Dropped(1, r.End)
		sink.Offered(1, r.End, 2)
	}
	s := rec.Collect(1)
	s.SetGauges([]sample.Gauge{{Active: 10, Allocated: 20}, {Active: 3, Allocated: 50}})
	return s
}

// checkReadSnapshot is a second whose check 0 passed on 200s and failed
// on 404s whose bodies were not JSON, and whose check 1 found no value.
func checkReadSnapshot(t *testing.T) *Snapshot {
	t.Helper()
	rec := NewRecorder(testLayout(), 1)
	sink := rec.Sink(0)
	for i := range 40 {
		end := 1500 * time.Millisecond
		miss := i%5 == 0
		status := 200
		if miss {
			status = 404
		}
		sink.CheckAnswer(0, end, !miss, sample.CheckRead{Status: status, NotJSON: miss})
		sink.CheckAnswer(1, end, !miss, sample.CheckRead{Status: 200 + i%6, NoValue: miss})
	}
	s := rec.Collect(1)
	if c := s.Checks[0]; c.Fails != 8 || c.NotJSON != 8 || len(c.Statuses) != 2 {
		t.Fatalf("check 0 recorded %+v, want 8 fails on bodies not JSON, by 2 statuses", c)
	}
	if c := s.Checks[1]; c.NoValue != 8 || len(c.Statuses) != maxCheckStatuses {
		t.Fatalf("check 1 recorded %+v, want 8 fails on no value, by %d statuses", c, maxCheckStatuses)
	}
	return s
}

func TestSnapshotRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		snap *Snapshot
	}{
		{"full", fullSnapshot(t)},
		{"empty layout", NewSnapshot(0, sample.Layout{})},
		{"nothing recorded", NewSnapshot(7, testLayout())},
		{"what checks read", checkReadSnapshot(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.snap.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			got := roundTrip(t, tt.snap)
			b2, err := got.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, b2) {
				t.Error("re-encoding the decoded snapshot gives different bytes")
			}
			if got.Second != tt.snap.Second || len(got.Endpoints) != len(tt.snap.Endpoints) {
				t.Errorf("decoded second %d with %d endpoints, want %d with %d", got.Second, len(got.Endpoints), tt.snap.Second, len(tt.snap.Endpoints))
			}
			for i, e := range tt.snap.Endpoints {
				g := got.Endpoints[i]
				if g.Requests != e.Requests || g.Failures != e.Failures || g.Truncated != e.Truncated || g.ConnectSum != e.ConnectSum || g.TLSMax != e.TLSMax ||
					g.Redirects != e.Redirects || g.StartedBefore != e.StartedBefore ||
					g.Sends != e.Sends ||
					len(g.Errors) != len(e.Errors) || g.Duration.Count() != e.Duration.Count() || g.Waiting.Quantile(99) != e.Waiting.Quantile(99) {
					t.Errorf("endpoint %d decoded as %+v, want %+v", i, g, e)
				}
			}
			for i, s := range tt.snap.Scenarios {
				g := got.Scenarios[i]
				if g.Iterations != s.Iterations || g.Dropped != s.Dropped || g.Offered != s.Offered || g.VUs != s.VUs || g.VUsMax != s.VUsMax || g.Lag.Count() != s.Lag.Count() {
					t.Errorf("scenario %d decoded as %+v, want %+v", i, g, s)
				}
			}
			for i, c := range tt.snap.Checks {
				if !reflect.DeepEqual(got.Checks[i], c) {
					t.Errorf("check %d decoded as %+v, want %+v", i, got.Checks[i], c)
				}
			}
		})
	}
}

// TestSnapshotReadsVersion1 decodes a snapshot written by the build before
// truncated bodies were counted, as old run.db files hold them: second 2 of
// store's fixture, where endpoint 0 served 3 requests of 3ms and endpoint 1
// had one timeout.
func TestSnapshotReadsVersion1(t *testing.T) {
	b, err := os.ReadFile("testdata/v1.snapshot")
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 1 {
		t.Fatalf("the fixture is version %d, want 1", b[3])
	}
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	e0, e1 := s.Endpoints[0], s.Endpoints[1]
	if s.Second != 2 || e0.Requests != 3 || e0.Sent != 30 || e0.Received != 300 || e0.Duration.Count() != 3 || e0.Truncated != 0 ||
		e1.Requests != 1 || e1.Failures[sample.Timeout] != 1 || s.Checks[0].Passes != 1 || s.Scenarios[0].VUs != 5 {
		t.Errorf("decoded %+v", s)
	}
	// Re-encoded, it is the current version and keeps every figure.
	again := roundTrip(t, &s)
	if again.Endpoints[0].Received != 300 || again.Endpoints[1].Failures != e1.Failures {
		t.Errorf("re-encoded as %+v", again)
	}
}

// TestSnapshotReadsVersion3 decodes fullSnapshot as the build before
// snapshot format 4 wrote it (testdata/v3.snapshot): every figure it kept
// reads back, and what it did not keep reads as not kept: no span of
// intended starts, no arrivals offered (diagnose then rebuilds them).
func TestSnapshotReadsVersion3(t *testing.T) {
	b, err := os.ReadFile("testdata/v3.snapshot")
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 3 {
		t.Fatalf("the fixture is version %d, want 3", b[3])
	}
	var s Snapshot
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	want := fullSnapshot(t)
	if s.Second != want.Second {
		t.Fatalf("second %d, want %d", s.Second, want.Second)
	}
	for i, e := range want.Endpoints {
		g := s.Endpoints[i]
		if g.Requests != e.Requests || g.Failures != e.Failures || g.StartedBefore != e.StartedBefore || g.Duration.Count() != e.Duration.Count() {
			t.Errorf("endpoint %d decoded as %+v, want %+v", i, g, e)
		}
		if g.Sends != (Sends{}) {
			t.Errorf("endpoint %d reads as keeping when it was sent: %+v", i, g.Sends)
		}
	}
	for i, sc := range want.Scenarios {
		g := s.Scenarios[i]
		if g.Iterations != sc.Iterations || g.Dropped != sc.Dropped || g.VUs != sc.VUs || g.Offered != 0 {
			t.Errorf("scenario %d decoded as %+v, want %+v without Offered", i, g, sc)
		}
	}
	if want.Scenarios[1].Offered == 0 {
		t.Error("fullSnapshot offers nothing: the test cannot tell")
	}
}

func TestSnapshotUnmarshalRejectsBadInput(t *testing.T) {
	good, err := fullSnapshot(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"empty", nil, "bad magic"},
		{"other file", []byte("SQLite format 3\x00"), "bad magic"},
		{"older than any format", append([]byte("LLS\x00"), good[4:]...), "version 0"},
		{"newer version", append([]byte("LLS\x0a"), good[4:]...), "version 10"},
		{"trailing bytes", append(append([]byte{}, good...), 0), "trailing"},
		{"a presence byte of sends that is neither", withStartsByte(t, good, 7), "sends"},
		{"more kinds than known", append([]byte("LLS\x02\x00\x7f"), good[6:]...), "kinds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Snapshot
			err := s.UnmarshalBinary(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got error %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
	// Every truncation of a valid snapshot is an error, never a panic.
	for n := range len(good) {
		var s Snapshot
		if err := s.UnmarshalBinary(good[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(good))
		}
	}
}

func TestSnapshotUnmarshalRejectsForeignHistogramGeometry(t *testing.T) {
	foreign := hdr.New(1, 1000, 2)
	if err := foreign.RecordValue(5); err != nil {
		t.Fatal(err)
	}
	text, err := foreign.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(string(text))
	if err != nil {
		t.Fatal(err)
	}
	// A snapshot of one scenario whose iteration histogram is the foreign one.
	b := []byte("LLS\x02")
	b = binary.AppendVarint(b, 0)                        // second
	b = binary.AppendUvarint(b, uint64(sample.NumKinds)) // kinds
	b = binary.AppendUvarint(b, 0)                       // endpoints
	b = binary.AppendUvarint(b, 1)                       // scenarios
	b = append(b, 0, 0, 0, 0)                            // iterations, dropped, vus, vus_max
	b = append(b, 1)                                     // iteration histogram present
	b = binary.AppendUvarint(b, uint64(len(raw)))
	b = append(b, raw...)
	b = append(b, 0, 0) // no lag histogram, no checks

	var got Snapshot
	err = got.UnmarshalBinary(b)
	if err == nil || !strings.Contains(err.Error(), "geometry") || !strings.Contains(err.Error(), "scenario 0") {
		t.Errorf("got error %v, want one naming scenario 0 and the histogram geometry", err)
	}
}

func FuzzSnapshotUnmarshal(f *testing.F) {
	good, err := fullSnapshot(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	empty, err := NewSnapshot(3, testLayout()).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(empty)
	f.Add([]byte("LLS\x01"))
	if v1, err := os.ReadFile("testdata/v1.snapshot"); err == nil {
		f.Add(v1)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Snapshot
		if err := s.UnmarshalBinary(data); err != nil {
			return
		}
		// Whatever decodes must encode again and decode to the same bytes.
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatalf("re-encoding a decoded snapshot: %v", err)
		}
		var again Snapshot
		if err := again.UnmarshalBinary(b); err != nil {
			t.Fatalf("decoding a re-encoded snapshot: %v", err)
		}
		b2, err := again.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatal("encoding is not stable across a round trip")
		}
	})
}

// TestEncoderReuseMatchesMarshal encodes snapshots of different shapes in
// turn with one Encoder: state it keeps between calls must never leak into
// the next encoding.
func TestEncoderReuseMatchesMarshal(t *testing.T) {
	snaps := []*Snapshot{fullSnapshot(t), NewSnapshot(7, testLayout()), fullSnapshot(t), NewSnapshot(0, sample.Layout{})}
	var enc Encoder
	var buf []byte
	for i, s := range snaps {
		want, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.Append(buf[:0], s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("snapshot %d: the reused Encoder gives %d bytes, MarshalBinary %d; they differ", i, len(got), len(want))
		}
		var back Snapshot
		if err := back.UnmarshalBinary(got); err != nil {
			t.Errorf("snapshot %d: decoding the reused Encoder's bytes: %v", i, err)
		}
		buf = got
	}
}

// withStartsByte returns a copy of good, an encoded fullSnapshot, with the
// presence byte of endpoint 0's sends set to v.
func withStartsByte(t *testing.T, good []byte, v byte) []byte {
	t.Helper()
	s := fullSnapshot(t)
	e := s.Endpoints[0]
	// The sends' three varints end endpoint 0's counters; find them after its presence byte.
	tail := []byte{1}
	for _, v := range []time.Duration{e.Sends.FirstStart, e.Sends.LastStart, e.Sends.LastEnd} {
		tail = binary.AppendVarint(tail, int64(v))
	}
	i := bytes.Index(good, tail)
	if i < 0 || !e.Sends.Kept {
		t.Fatal("no span of starts in the encoding")
	}
	out := append([]byte{}, good...)
	out[i] = v
	return out
}
