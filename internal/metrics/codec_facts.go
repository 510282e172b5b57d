package metrics

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// hasFacts reports whether any endpoint of s carries protocol facts.
func hasFacts(s *Snapshot) bool {
	for i := range s.Endpoints {
		if s.Endpoints[i].Facts != nil {
			return true
		}
	}
	return false
}

// appendFacts appends the endpoints' facts: their number, then per
// endpoint a presence byte, the counts and the four histograms.
func appendFacts(b []byte, hc *histCodec, s *Snapshot) ([]byte, error) {
	b = binary.AppendUvarint(b, uint64(len(s.Endpoints)))
	var err error
	for i := range s.Endpoints {
		f := s.Endpoints[i].Facts
		if f == nil {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		for _, v := range [...]int64{f.Sessions, f.MsgsSent, f.MsgsReceived, f.Reconnects} {
			b = binary.AppendVarint(b, v)
		}
		for _, h := range [...]*Hist{f.FirstMsg, f.Session, f.Gap, f.Reply} {
			if b, err = appendHist(b, hc, h); err != nil {
				return nil, fmt.Errorf("snapshot of second %d: endpoint %d's facts: %w", s.Second, i, err)
			}
		}
	}
	return b, nil
}

// facts reads what appendFacts wrote into eps.
func (d *decoder) facts(eps []EndpointSecond) {
	n := d.length("number of endpoints with facts", 1)
	if n != 0 && n != len(eps) && d.err == nil {
		d.fail("facts", fmt.Errorf("%d endpoints' facts for %d endpoints", n, len(eps)))
	}
	for i := 0; i < n && d.err == nil; i++ {
		switch d.byte("facts presence") {
		case 0:
			continue
		case 1:
		default:
			d.fail("facts presence", errors.New("neither 0 nor 1"))
			return
		}
		f := &FactFigures{Sessions: d.count("sessions"), MsgsSent: d.count("messages sent"),
			MsgsReceived: d.count("messages received"), Reconnects: d.count("reconnects")}
		f.FirstMsg = d.hist("time to first message histogram")
		f.Session = d.hist("session histogram")
		f.Gap = d.hist("message gap histogram")
		f.Reply = d.hist("reply time histogram")
		eps[i].Facts = f
	}
}
