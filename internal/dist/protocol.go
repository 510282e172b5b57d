package dist

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/loadlens/loadlens/internal/units"
)

// The wire protocol: one TCP (or TLS) connection per agent, carrying frames
// of a kind byte, a 4-byte big-endian length and the payload. Control
// messages are JSON; a second's measurements are the snapshot codec of
// internal/metrics behind its second number and the agent's CPU.
const (
	kindHello   byte = 'H' // coordinator → agent: the token; the first frame
	kindWelcome byte = 'W' // agent → coordinator: accepted, and who it is
	kindRefused byte = 'R' // agent → coordinator: why it refused, before it hangs up
	kindPing    byte = 'p' // coordinator → agent: a clock probe
	kindPong    byte = 'P' // agent → coordinator: the agent's clock at the probe
	kindJob     byte = 'J' // coordinator → agent: the test, its files and the segment
	kindReady   byte = 'r' // agent → coordinator: the test parsed (or why not)
	kindStart   byte = 'S' // coordinator → agent: the instant to start, on the agent's clock
	kindSecond  byte = 's' // agent → coordinator: one second's snapshot
	kindNotice  byte = 'N' // agent → coordinator: a notice of the engine
	kindDone    byte = 'D' // agent → coordinator: the load is over
	kindBeat    byte = 'B' // either way: alive; sent every beatEvery
	kindStop    byte = 'X' // coordinator → agent: stop the load now
)

// maxFrame bounds a frame: a test file (10 MiB at most) with its CSV files.
// An agent's frames during a run have bounds of their own (limits.go).
const maxFrame = 256 << 20

// maxHello bounds the one frame read before the token is checked: a hello
// holds a token of at most MaxToken bytes (6 when JSON escapes one) and a
// build, so a stranger's claim of more is refused without reading it.
const maxHello = 6*MaxToken + 1024

// maxWelcome bounds what a coordinator reads from an address before it has
// answered as an agent (a welcome or a refusal, both a few hundred bytes): a
// wrong address or a stranger cannot make it allocate maxFrame per agent.
const maxWelcome = 64 << 10

// hello is the coordinator's first frame.
type hello struct {
	Token string `json:"token"`
	Build
}

// welcome is the agent's answer to a hello with the right token.
type welcome struct {
	Host  string  `json:"host"`
	CPUs  int     `json:"cpus"`            // the cores its process may use (GOMAXPROCS)
	Cores float64 `json:"cores,omitempty"` // fewer than CPUs where a CPU quota holds it (a pod's limit): the quota's cores
	Index string  `json:"index,omitempty"` // LOADLENS_AGENT_INDEX, e.g. a Job's completion index
	Build
}

// cores is the cores the agent's process may use: its quota's where it
// said one fewer than its GOMAXPROCS, else its GOMAXPROCS.
func (w welcome) cores() float64 {
	if w.Cores > 0 && w.Cores < float64(w.CPUs) {
		return w.Cores
	}
	return float64(w.CPUs)
}

// refused says why the agent hangs up.
type refused struct {
	Error string `json:"error"`
}

// pong is the agent's clock when it answered a ping.
type pong struct {
	AgentNanos int64 `json:"agent_unix_nanos"`
}

// job is one agent's part of a run.
type job struct {
	File    string            `json:"file"`    // the test file's base name
	Source  []byte            `json:"source"`  // its raw text
	Files   map[string][]byte `json:"files"`   // CSV files by the path the test names them with
	Env     map[string]string `json:"env"`     // the environment values the test reads
	Segment string            `json:"segment"` // plan.ParseSegment's form
}

// ready says the agent parsed the test into a plan of this layout.
type ready struct {
	Error     string `json:"error,omitempty"`
	Endpoints int    `json:"endpoints"`
	Scenarios int    `json:"scenarios"`
	Checks    int    `json:"checks"`
}

// start is the instant every agent starts at, on this agent's clock.
type start struct {
	AtNanos int64 `json:"at_unix_nanos"`
}

// notice is a notice of the agent's engine.
type notice struct {
	Text string `json:"text"`
}

// done ends an agent's load.
type done struct {
	Error   string `json:"error,omitempty"`
	Seconds int    `json:"seconds"` // how many seconds it sent
	// Stopped is why the agent ended its load itself (a signal, e.g.
	// "agent stopped: terminated"), not asked by the coordinator.
	Stopped string `json:"stopped,omitempty"`
}

// stop asks an agent to stop the load.
type stop struct {
	Reason string `json:"reason"`
}

// frame is one message read off the wire.
type frame struct {
	kind byte
	body []byte
}

// conn reads and writes frames; writes may come from several goroutines.
type conn struct {
	rw    io.ReadWriter
	r     *bufio.Reader
	wmu   sync.Mutex
	limit uint32 // the largest frame read accepts; 0 is maxFrame
	// limitOf, when set, is the largest frame of each kind read accepts,
	// in place of limit: an agent's frames once its run is set up.
	limitOf func(kind byte) uint32
}

func newConn(rw io.ReadWriter) *conn { return &conn{rw: rw, r: bufio.NewReaderSize(rw, 64<<10)} }

// send writes one frame; v is JSON-encoded unless it is already bytes.
func (c *conn) send(kind byte, v any) error {
	b, err := encodeFrame(kind, v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.rw.Write(b)
	return err
}

// encodeFrame is one frame's bytes; v is JSON-encoded unless it is already bytes.
func encodeFrame(kind byte, v any) ([]byte, error) {
	var body []byte
	switch b := v.(type) {
	case nil:
	case []byte:
		body = b
	default:
		var err error
		if body, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if len(body) > maxFrame {
		return nil, fmt.Errorf("a %q frame of %d bytes is above the %d MiB limit", kind, len(body), maxFrame>>20)
	}
	hdr := [5]byte{kind}
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(body)))
	return append(hdr[:], body...), nil
}

// read reads the next frame, of at most c.limitOf its kind, else c.limit
// bytes (maxFrame when unset).
func (c *conn) read() (frame, error) {
	switch {
	case c.limitOf != nil:
		return readFrameOf(c.r, c.limitOf)
	case c.limit != 0:
		return readFrame(c.r, c.limit)
	}
	return readFrame(c.r, maxFrame)
}

// readFrame reads one frame of at most limit bytes from r. A longer one is
// refused from its header, before a byte of its body is read or allocated.
func readFrame(r io.Reader, limit uint32) (frame, error) {
	return readFrameOf(r, func(byte) uint32 { return limit })
}

// readFrameOf is readFrame with a limit for each kind of frame.
func readFrameOf(r io.Reader, limitOf func(kind byte) uint32) (frame, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return frame{}, err
	}
	n, limit := binary.BigEndian.Uint32(hdr[1:]), limitOf(hdr[0])
	if n > limit {
		return frame{}, &oversizeError{kind: hdr[0], n: n, limit: limit}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return frame{}, err
	}
	return frame{kind: hdr[0], body: body}, nil
}

// oversizeError is a frame header claiming more than the reader accepts.
type oversizeError struct {
	kind     byte
	n, limit uint32
}

func (e *oversizeError) Error() string {
	return fmt.Sprintf("a %q frame of %s is above the %s limit", e.kind, units.Bytes(int64(e.n)), units.Size(int64(e.limit)))
}

// expect reads the next frame, which must be of kind want, into v.
func (c *conn) expect(want byte, v any) error {
	f, err := c.read()
	if err != nil {
		return err
	}
	if f.kind == kindRefused && want != kindRefused {
		var r refused
		_ = json.Unmarshal(f.body, &r)
		return &refusedError{msg: r.Error}
	}
	if f.kind != want {
		return fmt.Errorf("protocol: got a %q frame, want %q", f.kind, want)
	}
	if v == nil {
		return nil
	}
	return json.Unmarshal(f.body, v)
}

// refusedError is an agent's refusal.
type refusedError struct{ msg string }

func (e *refusedError) Error() string { return "the agent refused: " + e.msg }

// secondHead is what a kindSecond body says besides the snapshot: the
// second, the agent's CPU in cores busy and the seconds that was measured
// over (a run's last second is cut short), its goroutines' scheduling
// latency p99 in seconds and its threads' run-queue wait in cores (NaN:
// unknown), its requests in flight, and its host's CPU: cores busy,
// every process counted, of hostCPUs (0: not sent, an agent of a build
// before it or one that cannot read /proc/stat).
type secondHead struct {
	sec          int
	cpu, cpuWall float64
	stall, wait  float64
	inFlight     int64
	hostBusy     float64
	hostCPUs     int
	quota        quotaReading // the agent's own CPU quota; cores 0: none, or not sent
}

// quotaReading is the CPU quota that holds an agent's own process (a pod's
// CPU limit) in cores, and per second its periods, those throttled and the
// time its threads were held back (app.QuotaReading).
type quotaReading struct{ cores, periods, throttled, held float64 }

// quotaTag marks the optional quota section, after the host section when
// both are sent: four float64s.
const quotaTag = 'q'

// hostTag marks the optional host CPU section after the head's fixed part:
// a snapshot starts with its magic "LLS", never with it, so a second without
// the section (an older agent's) reads as before.
const hostTag = 'h'

// secondFrame is a kindSecond body: h, then the snapshot's binary form.
func secondFrame(h secondHead, snap []byte) []byte {
	b := binary.AppendUvarint(make([]byte, 0, len(snap)+48), uint64(h.sec))
	for _, f := range []float64{h.cpu, h.cpuWall, h.stall, h.wait} {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(f))
	}
	b = binary.AppendUvarint(b, uint64(max(h.inFlight, 0)))
	if h.hostCPUs > 0 {
		b = append(b, hostTag)
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(h.hostBusy))
		b = binary.AppendUvarint(b, uint64(h.hostCPUs))
	}
	if h.quota.cores > 0 {
		b = append(b, quotaTag)
		for _, f := range []float64{h.quota.cores, h.quota.periods, h.quota.throttled, h.quota.held} {
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(f))
		}
	}
	return append(b, snap...)
}

// parseSecondFrame splits a kindSecond body.
func parseSecondFrame(b []byte) (h secondHead, snap []byte, err error) {
	bad := errors.New("protocol: a bad second frame")
	s, n := binary.Uvarint(b)
	if n <= 0 || len(b) < n+32 || s > math.MaxInt32 {
		return h, nil, bad
	}
	h.sec = int(s)
	for _, f := range []*float64{&h.cpu, &h.cpuWall, &h.stall, &h.wait} {
		*f = math.Float64frombits(binary.BigEndian.Uint64(b[n:]))
		n += 8
	}
	f, m := binary.Uvarint(b[n:])
	if m <= 0 || f > math.MaxInt64 {
		return h, nil, bad
	}
	h.inFlight = int64(f)
	n += m
	if n < len(b) && b[n] == hostTag {
		if len(b) < n+9 {
			return h, nil, bad
		}
		h.hostBusy = math.Float64frombits(binary.BigEndian.Uint64(b[n+1:]))
		c, k := binary.Uvarint(b[n+9:])
		if k <= 0 || c == 0 || c > maxHostCPUs {
			return h, nil, bad
		}
		h.hostCPUs, n = int(c), n+9+k
	}
	if n < len(b) && b[n] == quotaTag {
		if len(b) < n+33 {
			return h, nil, bad
		}
		for i, f := range []*float64{&h.quota.cores, &h.quota.periods, &h.quota.throttled, &h.quota.held} {
			*f = math.Float64frombits(binary.BigEndian.Uint64(b[n+1+8*i:]))
		}
		n += 33
	}
	return h, b[n:], nil
}

// maxHostCPUs bounds the CPUs an agent may say its host has: the largest
// hosts Linux runs on have 8,192 (CONFIG_NR_CPUS), and this is 16 times it.
const maxHostCPUs = 1 << 17

// badHost says why a second's host CPU cannot be a reading of /proc/stat:
// not a number, negative, or more cores busy than the host has; "" when
// it can be, or was not sent.
func badHost(h secondHead) string {
	if h.hostCPUs == 0 {
		return ""
	}
	if math.IsNaN(h.hostBusy) || h.hostBusy < 0 || h.hostBusy > float64(h.hostCPUs) {
		return fmt.Sprintf("its host's CPU: %g cores busy of its %d, not a reading", h.hostBusy, h.hostCPUs)
	}
	return ""
}

// badQuota says why a second's quota section cannot be a reading of its
// cgroup: a quota not a positive number of cores a host could have, rates
// not finite and not negative, more periods throttled than ran; "" when it
// can be, or was not sent.
func badQuota(h secondHead) string {
	q := h.quota
	if q == (quotaReading{}) {
		return ""
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }
	if !(q.cores > 0 && q.cores <= maxHostCPUs) || !finite(q.periods) || !finite(q.throttled) || !finite(q.held) || q.throttled > q.periods {
		return fmt.Sprintf("its CPU quota: %g cores, %g of %g periods throttled, %g s held back, not a reading", q.cores, q.throttled, q.periods, q.held)
	}
	return ""
}
