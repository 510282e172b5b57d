package metrics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/loadlens/loadlens/internal/sample"
)

// The binary snapshot format: a magic, a version byte, then varints.
// Lengths are uvarints; every other number is a zig-zag varint. Histograms
// are a presence byte, then a uvarint length and HdrHistogram's V2
// compressed encoding. Version 2 added each endpoint's truncated bodies,
// version 3 its redirects and how long before its second its earliest
// request was sent, version 4 when its requests were sent and the last
// ended (Sends) and each scenario's arrivals offered, version 5 the flow groups'
// durations after the checks, then each endpoint's successful requests'
// durations when kept (written only when the test has groups or keeps
// those, so that a test without them stays readable by earlier builds),
// version 6 each endpoint's session protocol facts after those (written
// only when an endpoint has some), version 7 the custom metrics' series
// after the facts, then the statuses thresholds name per endpoint (written
// only when the test has either), version 8 each scenario's iterations a
// request not sent ended and their reasons after those (written only when
// there are some), version 9 what each check read (its failures on bodies
// not JSON and on no value, its outcomes by status) after those (written
// only when a check kept some); versions 1 to 8, which run.db files of
// earlier builds hold, are still read.
const (
	snapshotMagic      = "LLS"
	snapshotVersion    = 9
	groupsVersion      = 5 // the first version with groups
	factsVersion       = 6 // the first version with protocol facts
	customVersion      = 7 // the first version with custom metrics and statuses
	notSentVersion     = 8 // the first version with iterations ended by a request not sent
	checkReadVersion   = 9 // the first version with what checks read
	minSnapshotVersion = 1
)

// SnapshotFormat is the newest snapshot format this build writes and
// reads. A distributed run's agents and coordinator compare it at their
// handshake (dist.Build), since builds of one version string, without a
// commit stamped in, can differ in it.
const SnapshotFormat = snapshotVersion

// errTruncated is wrapped into the errors of input that ends too early.
var errTruncated = errors.New("truncated")

// MarshalBinary encodes s compactly; histograms use HdrHistogram's standard
// V2 compressed encoding.
func (s *Snapshot) MarshalBinary() ([]byte, error) {
	return new(Encoder).Append(make([]byte, 0, 256), s)
}

// Encoder encodes snapshots as MarshalBinary does, keeping its compressor
// and buffers between calls: a fresh zlib compressor is ~800 KB to allocate
// and clear, once per second of a run otherwise. One Encoder serves one
// goroutine.
type Encoder struct {
	hc histCodec
}

// Append appends the encoding of s to b.
func (enc *Encoder) Append(b []byte, s *Snapshot) ([]byte, error) {
	return enc.AppendPausing(b, s, func() {})
}

// AppendPausing is Append calling pause after each busy endpoint and each
// scenario, so a caller sharing one P with the VUs can let them run.
func (enc *Encoder) AppendPausing(b []byte, s *Snapshot, pause func()) ([]byte, error) {
	b = append(b, snapshotMagic...)
	expected, facts := hasExpected(s), hasFacts(s)
	notSent, reads := hasNotSent(s), hasCheckReads(s)
	custom := len(s.Metrics) > 0 || keptStatuses(s) > 0 || notSent || reads
	b = append(b, formatOf(s, expected, facts, custom, notSent, reads))
	b = binary.AppendVarint(b, int64(s.Second))
	b = binary.AppendUvarint(b, uint64(sample.NumKinds))
	var err error
	hc := &enc.hc
	b = binary.AppendUvarint(b, uint64(len(s.Endpoints)))
	for i := range s.Endpoints {
		if b, err = s.Endpoints[i].appendBinary(b, hc); err != nil {
			return nil, fmt.Errorf("snapshot of second %d: endpoint %d: %w", s.Second, i, err)
		}
		if s.Endpoints[i].Requests > 0 {
			pause()
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.Scenarios)))
	for i := range s.Scenarios {
		if b, err = s.Scenarios[i].appendBinary(b, hc); err != nil {
			return nil, fmt.Errorf("snapshot of second %d: scenario %d: %w", s.Second, i, err)
		}
		pause()
	}
	b = binary.AppendUvarint(b, uint64(len(s.Checks)))
	for _, c := range s.Checks {
		b = binary.AppendVarint(b, c.Passes)
		b = binary.AppendVarint(b, c.Fails)
	}
	if len(s.Groups) == 0 && !expected && !facts && !custom {
		return b, nil
	}
	b = binary.AppendUvarint(b, uint64(len(s.Groups)))
	for i := range s.Groups {
		if b, err = appendHist(b, hc, s.Groups[i].Duration); err != nil {
			return nil, fmt.Errorf("snapshot of second %d: group %d: %w", s.Second, i, err)
		}
	}
	if !expected {
		b = binary.AppendUvarint(b, 0)
	} else {
		b = binary.AppendUvarint(b, uint64(len(s.Endpoints)))
		for i := range s.Endpoints {
			if b, err = appendHist(b, hc, s.Endpoints[i].Expected); err != nil {
				return nil, fmt.Errorf("snapshot of second %d: endpoint %d's successful durations: %w", s.Second, i, err)
			}
		}
	}
	if !facts && !custom {
		return b, nil
	}
	if b, err = appendFacts(b, hc, s); err != nil || !custom {
		return b, err
	}
	if b, err = appendMetrics(b, hc, s); err != nil {
		return nil, err
	}
	if b, err = appendStatuses(b, hc, s); err != nil || !notSent && !reads {
		return b, err
	}
	if b = appendNotSent(b, s); !reads {
		return b, nil
	}
	return appendCheckReads(b, s), nil
}

// formatOf is the oldest snapshot format that holds what s has.
func formatOf(s *Snapshot, expected, facts, custom, notSent, reads bool) byte {
	switch {
	case reads:
		return checkReadVersion
	case notSent:
		return notSentVersion
	case custom:
		return customVersion
	case facts:
		return factsVersion
	case len(s.Groups) > 0 || expected:
		return groupsVersion
	}
	return groupsVersion - 1
}

// appendCheckReads writes what each check read: its failures on bodies not
// JSON and on no value, and its outcomes by status.
func appendCheckReads(b []byte, s *Snapshot) []byte {
	for i := range s.Checks {
		c := &s.Checks[i]
		b = binary.AppendVarint(b, c.NotJSON)
		b = binary.AppendVarint(b, c.NoValue)
		b = binary.AppendUvarint(b, uint64(len(c.Statuses)))
		for _, st := range c.Statuses {
			b = binary.AppendVarint(b, int64(st.Status))
			b = binary.AppendVarint(b, st.Passes)
			b = binary.AppendVarint(b, st.Fails)
		}
	}
	return b
}

// hasNotSent reports whether an iteration of s ended by a request not sent.
func hasNotSent(s *Snapshot) bool {
	for i := range s.Scenarios {
		if s.Scenarios[i].NotSent > 0 {
			return true
		}
	}
	return false
}

// appendNotSent writes each scenario's NotSent and its reasons.
func appendNotSent(b []byte, s *Snapshot) []byte {
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		b = binary.AppendVarint(b, sc.NotSent)
		b = binary.AppendUvarint(b, uint64(len(sc.NotSentWhy)))
		for _, es := range sc.NotSentWhy {
			b = binary.AppendUvarint(b, uint64(len(es.Message)))
			b = append(b, es.Message...)
			b = binary.AppendVarint(b, es.Count)
		}
	}
	return b
}

// hasExpected reports whether any endpoint of s kept its successful
// requests' durations.
func hasExpected(s *Snapshot) bool {
	for i := range s.Endpoints {
		if s.Endpoints[i].Expected != nil {
			return true
		}
	}
	return false
}

func (e *EndpointSecond) appendBinary(b []byte, hc *histCodec) ([]byte, error) {
	b = binary.AppendVarint(b, e.Requests)
	for _, f := range e.Failures {
		b = binary.AppendVarint(b, f)
	}
	for _, v := range [...]int64{e.Truncated, e.Sent, e.Received, int64(e.ConnectSum), int64(e.TLSSum),
		e.Connects, e.TLSHandshakes, int64(e.ConnectMax), int64(e.TLSMax), e.Redirects, int64(e.StartedBefore)} {
		b = binary.AppendVarint(b, v)
	}
	if e.Sends.Kept {
		b = append(b, 1)
		for _, v := range [...]time.Duration{e.Sends.FirstStart, e.Sends.LastStart, e.Sends.LastEnd} {
			b = binary.AppendVarint(b, int64(v))
		}
	} else {
		b = append(b, 0)
	}
	var err error
	if b, err = appendHist(b, hc, e.Duration); err != nil {
		return nil, err
	}
	if b, err = appendHist(b, hc, e.Waiting); err != nil {
		return nil, err
	}
	b = binary.AppendUvarint(b, uint64(len(e.Errors)))
	for _, es := range e.Errors {
		b = append(b, byte(es.Kind))
		b = binary.AppendVarint(b, int64(es.Status))
		b = binary.AppendUvarint(b, uint64(len(es.Message)))
		b = append(b, es.Message...)
		b = binary.AppendVarint(b, es.Count)
	}
	return b, nil
}

func (sc *ScenarioSecond) appendBinary(b []byte, hc *histCodec) ([]byte, error) {
	for _, v := range [...]int64{sc.Iterations, sc.Dropped, sc.VUs, sc.VUsMax, sc.Offered} {
		b = binary.AppendVarint(b, v)
	}
	var err error
	if b, err = appendHist(b, hc, sc.IterationDuration); err != nil {
		return nil, err
	}
	return appendHist(b, hc, sc.Lag)
}

func appendHist(b []byte, hc *histCodec, h *Hist) ([]byte, error) {
	if h == nil {
		return append(b, 0), nil
	}
	// Encode after a placeholder, then insert the length in front.
	start := len(b)
	b, err := hc.appendHist(b, h)
	if err != nil {
		return nil, fmt.Errorf("encode histogram: %w", err)
	}
	n := len(b) - start
	var prefix [1 + binary.MaxVarintLen64]byte
	prefix[0] = 1
	m := 1 + binary.PutUvarint(prefix[1:], uint64(n))
	b = append(b, prefix[:m]...)
	copy(b[start+m:], b[start:start+n])
	copy(b[start:], prefix[:m])
	return b, nil
}

// UnmarshalBinary decodes a snapshot written by MarshalBinary, by this
// build or an earlier one, replacing s. Truncated, corrupt or newer-version
// input is an error.
func (s *Snapshot) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	if len(data) < len(snapshotMagic)+1 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return errors.New("snapshot: not a loadlens snapshot (bad magic)")
	}
	d.version = data[len(snapshotMagic)]
	if d.version < minSnapshotVersion || d.version > snapshotVersion {
		return fmt.Errorf("snapshot: version %d is not supported (this build reads versions %d to %d)", d.version, minSnapshotVersion, snapshotVersion)
	}
	d.off = len(snapshotMagic) + 1
	var out Snapshot
	out.Second = int(d.varint("second"))
	if out.Second < 0 {
		d.fail("second", fmt.Errorf("negative second %d", out.Second))
	}
	kinds := d.uvarint("number of failure kinds")
	if kinds > uint64(sample.NumKinds) {
		d.fail("failure kinds", fmt.Errorf("%d kinds, this build knows %d", kinds, sample.NumKinds))
		kinds = 0
	}
	// An endpoint takes at least a byte per count and per absent histogram.
	out.Endpoints = make([]EndpointSecond, d.length("number of endpoints", 1+int(kinds)+d.endpointCounters()+2+1+d.startsByte()))
	for i := range out.Endpoints {
		if d.endpoint(&out.Endpoints[i], int(kinds), out.Second); d.err != nil {
			d.err = fmt.Errorf("endpoint %d: %w", i, d.err)
			break
		}
	}
	out.Scenarios = make([]ScenarioSecond, d.length("number of scenarios", d.scenarioCounters()+2))
	for i := range out.Scenarios {
		if d.scenario(&out.Scenarios[i]); d.err != nil {
			d.err = fmt.Errorf("scenario %d: %w", i, d.err)
			break
		}
	}
	out.Checks = make([]CheckSecond, d.length("number of checks", 2))
	for i := range out.Checks {
		out.Checks[i].Passes = d.count("check passes")
		out.Checks[i].Fails = d.count("check fails")
	}
	if d.version >= groupsVersion {
		out.Groups = make([]GroupSecond, d.length("number of groups", 1))
		for i := range out.Groups {
			out.Groups[i].Duration = d.hist("group duration histogram")
		}
		n := d.length("number of endpoints with successful durations", 1)
		if n != 0 && n != len(out.Endpoints) && d.err == nil {
			d.fail("successful durations", fmt.Errorf("%d histograms for %d endpoints", n, len(out.Endpoints)))
		}
		for i := 0; i < n && d.err == nil; i++ {
			out.Endpoints[i].Expected = d.hist("successful duration histogram")
		}
	}
	if d.version >= factsVersion {
		d.facts(out.Endpoints)
	}
	if d.version >= customVersion {
		out.Metrics = d.metrics()
		d.statuses(out.Endpoints)
	}
	if d.version >= notSentVersion {
		d.notSent(out.Scenarios)
	}
	if d.version >= checkReadVersion {
		d.checkReads(out.Checks)
	}
	if d.err == nil && d.off != len(d.b) {
		d.fail("end", fmt.Errorf("%d trailing bytes", len(d.b)-d.off))
	}
	if d.err != nil {
		return fmt.Errorf("snapshot: %w", d.err)
	}
	*s = out
	return nil
}

func (d *decoder) endpoint(e *EndpointSecond, kinds int, sec int) {
	e.Requests = d.count("requests")
	for k := range kinds {
		e.Failures[k] = d.count("failures")
	}
	if e.Failures[sample.OK] != 0 {
		d.fail("failures", errors.New("failures of kind ok"))
	}
	if d.version >= 2 {
		e.Truncated = d.count("truncated bodies")
	}
	e.Sent = d.count("bytes sent")
	e.Received = d.count("bytes received")
	e.ConnectSum = time.Duration(d.count("connect time"))
	e.TLSSum = time.Duration(d.count("TLS time"))
	e.Connects = d.count("connects")
	e.TLSHandshakes = d.count("TLS handshakes")
	e.ConnectMax = time.Duration(d.count("connect max"))
	e.TLSMax = time.Duration(d.count("TLS max"))
	if d.version >= 3 {
		e.Redirects = d.count("redirects")
		e.StartedBefore = time.Duration(d.count("started before"))
	}
	if d.version >= 4 {
		d.starts(e)
	}
	e.Duration = d.hist("duration histogram")
	e.Waiting = d.hist("waiting histogram")
	if d.version < 3 {
		e.StartedBefore = startedBeforeV2(e, sec)
	}
	n := d.length("number of errors", 4)
	if d.err != nil || n == 0 {
		return
	}
	e.Errors = make([]ErrorSample, 0, n)
	for range n {
		var es ErrorSample
		k := d.byte("error kind")
		if k == byte(sample.OK) || k >= byte(sample.NumKinds) {
			d.fail("error kind", fmt.Errorf("invalid kind %d", k))
		}
		es.Kind = sample.Kind(k)
		es.Status = int(d.varint("error status"))
		es.Message = string(d.bytes("error message"))
		es.Count = d.count("error count")
		if d.err != nil {
			return
		}
		e.Errors = append(e.Errors, es)
	}
}

func (d *decoder) scenario(sc *ScenarioSecond) {
	sc.Iterations = d.count("iterations")
	sc.Dropped = d.count("dropped iterations")
	sc.VUs = d.count("vus")
	sc.VUsMax = d.count("vus_max")
	if d.version >= 4 {
		sc.Offered = d.count("offered arrivals")
	}
	sc.IterationDuration = d.hist("iteration duration histogram")
	sc.Lag = d.hist("lag histogram")
}

// notSent reads each scenario's iterations a request not sent ended, and
// at most MaxErrorSamples of their reasons.
func (d *decoder) notSent(scs []ScenarioSecond) {
	for i := range scs {
		sc := &scs[i]
		sc.NotSent = d.count("iterations not sent")
		n := d.length("number of reasons not sent", 2)
		if n > MaxErrorSamples && d.err == nil {
			d.fail("reasons not sent", fmt.Errorf("%d reasons, at most %d are kept", n, MaxErrorSamples))
		}
		for j := 0; j < n && d.err == nil; j++ {
			es := ErrorSample{Kind: sample.Other, Message: string(d.bytes("reason not sent"))}
			es.Count = d.count("count not sent")
			sc.NotSentWhy = append(sc.NotSentWhy, es)
		}
		if d.err != nil {
			d.err = fmt.Errorf("scenario %d: %w", i, d.err)
			return
		}
	}
}

// checkReads reads what each check read, at most maxCheckStatuses statuses.
func (d *decoder) checkReads(cs []CheckSecond) {
	for i := 0; i < len(cs) && d.err == nil; i++ {
		c := &cs[i]
		c.NotJSON = d.count("check fails on bodies not JSON")
		c.NoValue = d.count("check fails on no value")
		n := d.length("number of check statuses", 3)
		if n > maxCheckStatuses && d.err == nil {
			d.fail("check statuses", fmt.Errorf("%d statuses, at most %d are kept", n, maxCheckStatuses))
		}
		for j := 0; j < n && d.err == nil; j++ {
			st := CheckStatus{Status: int(d.varint("check status"))}
			st.Passes, st.Fails = d.count("check passes of a status"), d.count("check fails of a status")
			c.Statuses = append(c.Statuses, st)
		}
		if d.err != nil {
			d.err = fmt.Errorf("check %d: %w", i, d.err)
			return
		}
	}
}

// decoder reads the snapshot format; the first error sticks and makes every
// later read a no-op returning zero.
type decoder struct {
	b       []byte
	off     int
	err     error
	hc      histCodec
	version byte
}

// endpointCounters is how many counters follow an endpoint's failures.
func (d *decoder) endpointCounters() int {
	switch {
	case d.version >= 3:
		return 11
	case d.version == 2:
		return 9
	}
	return 8
}

// startsByte is the byte that says whether an endpoint's span of intended
// starts follows: from version 4 on.
func (d *decoder) startsByte() int {
	if d.version >= 4 {
		return 1
	}
	return 0
}

// scenarioCounters is how many counters a scenario starts with.
func (d *decoder) scenarioCounters() int {
	if d.version >= 4 {
		return 5
	}
	return 4
}

// starts reads when an endpoint's requests were sent and the last one
// ended, when the snapshot kept it.
func (d *decoder) starts(e *EndpointSecond) {
	switch known := d.byte("sends"); {
	case d.err != nil || known == 0:
	case known != 1:
		d.fail("sends", fmt.Errorf("invalid presence byte %d", known))
	default:
		s := &e.Sends
		s.Kept = true
		s.FirstStart = time.Duration(d.varint("first start"))
		s.LastStart = time.Duration(d.varint("last start"))
		s.LastEnd = time.Duration(d.varint("last end"))
		if s.LastStart < s.FirstStart || s.LastEnd < s.LastStart {
			d.fail("sends", fmt.Errorf("sent %v to %v, the last ending at %v: out of order", s.FirstStart, s.LastStart, s.LastEnd))
		}
	}
}

// startedBeforeV2 is what a snapshot of version 1 or 2, which did not keep
// when its requests were sent, says of it, as those builds read it: only
// requests cut off by the end of the run (all recorded in its last second)
// had been in flight since an earlier second, for up to the longest
// duration. Completed requests read as sent within their second.
func startedBeforeV2(e *EndpointSecond, sec int) time.Duration {
	if e.Failures[sample.Interrupted] == 0 || e.Duration == nil {
		return 0
	}
	// The old reading started the endpoint at floor(sec - longest): a whole number of seconds back.
	back := time.Duration(math.Ceil(e.Duration.Max().Seconds())) * time.Second
	return min(back, time.Duration(sec)*time.Second)
}

func (d *decoder) fail(field string, err error) {
	if d.err == nil {
		d.err = fmt.Errorf("%s at byte %d: %w", field, d.off, err)
	}
}

// advance moves past a varint of n bytes, as binary.Varint and Uvarint
// report it; false, with the error recorded, when there was none.
func (d *decoder) advance(field string, n int) bool {
	switch {
	case n < 0:
		d.fail(field, errors.New("varint overflows 64 bits"))
	case n == 0:
		d.fail(field, errTruncated)
	default:
		d.off += n
		return true
	}
	return false
}

func (d *decoder) varint(field string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	if !d.advance(field, n) {
		return 0
	}
	return v
}

func (d *decoder) uvarint(field string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	if !d.advance(field, n) {
		return 0
	}
	return v
}

// count reads a number that can never be negative.
func (d *decoder) count(field string) int64 {
	v := d.varint(field)
	if v < 0 {
		d.fail(field, fmt.Errorf("negative value %d", v))
		return 0
	}
	return v
}

// length reads the length of a list whose elements take at least minSize
// bytes each; a list longer than the remaining input can hold is corrupt,
// which also bounds what a decoder allocates.
func (d *decoder) length(field string, minSize int) int {
	v := d.uvarint(field)
	if left := len(d.b) - d.off; v > uint64(left/minSize) {
		d.fail(field, fmt.Errorf("%d elements of at least %d bytes exceed the %d bytes left", v, minSize, left))
		return 0
	}
	return int(v)
}

func (d *decoder) byte(field string) byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.b) {
		d.fail(field, errTruncated)
		return 0
	}
	d.off++
	return d.b[d.off-1]
}

func (d *decoder) bytes(field string) []byte {
	n := d.length(field, 1)
	if d.err != nil {
		return nil
	}
	d.off += n
	return d.b[d.off-n : d.off]
}

func (d *decoder) hist(field string) *Hist {
	switch present := d.byte(field); {
	case d.err != nil:
		return nil
	case present == 0:
		return nil
	case present != 1:
		d.fail(field, fmt.Errorf("invalid presence byte %d", present))
		return nil
	}
	raw := d.bytes(field)
	if d.err != nil {
		return nil
	}
	h, err := d.hc.decode(raw)
	if err != nil {
		d.fail(field, err)
		return nil
	}
	return h
}
